// @ts-check
// One chat per contact, as WhatsApp Web lists them: #chats beside the messages names every
// conversation of the log (a contact's phone JID, its LID when it has no phone, or a group; the
// bubble's data-contact), the newest first, with its last message. Picking one shows only that
// chat's messages and writes as that contact (#from, #lid); "All chats", the default, shows
// every message. page.js calls noteChat for each bubble it adds and clearChats when the log
// starts again.

/** The conversation shown, or '' for all of them. */
var openChat = '';
/** @type {Record<string, HTMLElement>} conversation -> its row in #chats */
var chatRows = {};

function chatRow(key, label) {
  var row = el('button', 'chat-row');
  row.type = 'button';
  row.setAttribute('data-testid', 'chat');
  row.setAttribute('data-contact', key);
  row.appendChild(el('span', 'chat-name', label));
  row.appendChild(el('span', 'chat-last', ''));
  row.addEventListener('click', function () { openChatOf(key); });
  return row;
}

/** Lists the bubble's conversation (a new one, or moved to the top with its last message) and hides the bubble when another chat is open. */
function noteChat(node) {
  var key = node.getAttribute('data-contact') || '';
  if (!key || key === 'status@broadcast') return;
  var row = chatRows[key];
  if (!row) {
    row = chatRows[key] = chatRow(key, isGroup(key) ? chatLabel(key) : contactLabel(key));
    if (key === openChat) row.classList.add('active');
  }
  var lastLine = /** @type {HTMLElement} */ (row.querySelector('.chat-last'));
  if (!node.classList.contains('notice')) lastLine.textContent = short(textOf(node) || node.getAttribute('data-kind'), 40);
  var all = $('chat-all');
  all.parentElement.insertBefore(row, all.nextSibling);
  node.hidden = openChat !== '' && key !== openChat;
}

/** Shows one conversation ('' = all) and, for a contact, writes as it from now on. */
function openChatOf(key) {
  openChat = key;
  $('chat-all').classList.toggle('active', key === '');
  Object.keys(chatRows).forEach(function (k) { chatRows[k].classList.toggle('active', k === key); });
  box.querySelectorAll('.bubble').forEach(function (b) { /** @type {HTMLElement} */ (b).hidden = key !== '' && b.getAttribute('data-contact') !== key; });
  if (key && !isGroup(key)) {
    var from = /** @type {HTMLInputElement} */ ($('from'));
    var lid = /** @type {HTMLInputElement} */ ($('lid'));
    from.value = isLid(key) ? key : key.split('@')[0];
    lid.value = lidOfPhone[key] ? lidOfPhone[key].split('@')[0] + '@lid' : '';
    who();
  }
  box.scrollTop = box.scrollHeight;
}

function clearChats() {
  Object.keys(chatRows).forEach(function (k) { chatRows[k].remove(); });
  chatRows = {};
  openChatOf('');
}

$('chat-all').addEventListener('click', function () { openChatOf(''); });
