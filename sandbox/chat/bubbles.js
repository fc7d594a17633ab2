// @ts-check
// How a chat entry is drawn: one bubble per entry in #messages, each message kind the way a phone
// shows it (lists, buttons, locations, status posts, media, contacts, polls), text formatted as
// WhatsApp formats it with links that open in a new tab (format.js), and the notices (presence,
// reactions, edits, reads, deletes) that also mark the bubble they name. What WhatsApp lets a
// person tap is tappable here too, and answers as the contact: a message's reply buttons, a
// list's rows, a poll's options. A plain text is never tappable, numbered choices or not: the
// person types the answer, as on the phone.

var $ = function (id) { return document.getElementById(id); };
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
var box = $('messages');
var last = null;
var EMPTY = 'No messages yet. Type below as the contact and press Send: the message goes to the instance\'s webhook (e.g. an n8n trigger) and whatever the workflow sends back shows up here, live.';
var PIN = '<svg width="34" height="34" viewBox="0 0 24 24" aria-hidden="true"><path fill="#e53935" d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7z"/><circle cx="12" cy="9" r="2.6" fill="#fff"/></svg>';

function time(entry) { return new Date(entry.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }); }
function short(s, n) { s = str(s).replace(/\s+/g, ' ').trim(); return s.length > n ? s.slice(0, n - 1) + '…' : s; }
function target(id) { return id ? box.querySelector('.bubble[data-message-id="' + String(id).replace(/["\\]/g, '') + '"]:not(.notice)') : null; }
function textOf(node) { var c = node && node.querySelector('.content'); return c ? c.getAttribute('data-text') || c.textContent : ''; }
function line(parent, cls, text) { if (str(text) !== '') parent.appendChild(el('div', cls, text)); }

function renderList(body, b, entry) {
  line(body, 'title', b.title);
  line(body, '', b.description);
  (b.sections || b.values || []).forEach(function (s) {
    line(body, 'section', s.title);
    (s.rows || []).forEach(function (r) {
      var row = canAnswer(entry) ? choiceButton(str(r.title), entry, 'row reply-choice') : el('div', 'row', r.title);
      if (r.description) row.appendChild(el('small', '', r.description));
      body.appendChild(row);
    });
  });
  line(body, 'footer', b.footerText);
  var choices = el('div', 'choices');
  choices.appendChild(el('div', 'choice', '☰ ' + (b.buttonText || 'Open')));
  return choices;
}

function renderButtons(body, b, entry) {
  line(body, 'title', b.title);
  line(body, '', b.description);
  line(body, 'footer', b.footer);
  var choices = el('div', 'choices');
  (b.buttons || []).forEach(function (x) {
    var label = x.displayText || x.title || x.url || x.phoneNumber || x.copyCode || x.type;
    if (x.type === 'url') label = '↗ ' + label;
    if (x.type === 'call') label = '✆ ' + label;
    var reply = (x.type === undefined || x.type === 'reply') && canAnswer(entry);
    choices.appendChild(reply ? choiceButton(str(label), entry, 'choice reply-choice') : el('div', 'choice', label));
  });
  return choices;
}

function renderLocation(body, b) {
  var map = el('div', 'map');
  map.innerHTML = PIN;
  body.appendChild(map);
  line(body, 'title', b.name);
  line(body, '', b.address);
  line(body, 'coords', Number(b.latitude).toFixed(5) + ', ' + Number(b.longitude).toFixed(5));
  var a = el('a', '', 'Open in OpenStreetMap');
  a.href = 'https://www.openstreetmap.org/?mlat=' + encodeURIComponent(b.latitude) + '&mlon=' + encodeURIComponent(b.longitude) + '#map=16/' + encodeURIComponent(b.latitude) + '/' + encodeURIComponent(b.longitude);
  a.target = '_blank'; a.rel = 'noopener noreferrer';
  body.appendChild(a);
}

function renderStatus(body, b) {
  var card = el('div', 'card', b.type === 'text' ? b.content : '[' + b.type + '] ' + str(b.content) + (b.caption ? ' ' + b.caption : ''));
  if (b.type === 'text' && /^#[0-9a-fA-F]{3,8}$/.test(str(b.backgroundColor))) card.style.background = b.backgroundColor;
  body.appendChild(card);
  var who = b.allContacts ? 'all contacts' : (b.statusJidList || []).length + ' contact' + ((b.statusJidList || []).length === 1 ? '' : 's');
  line(body, 'footer', 'Status update · visible to ' + who);
}

// media of both directions: entry.media points at the stored file (GET /_sandbox/media/...)
function renderMedia(body, entry, b) {
  var stored = entry.media || null;
  var media = b.media || {};
  var src = stored ? stored.url : (media.base64 ? 'data:' + media.mimetype + ';base64,' + media.base64 : '');
  var name = (stored && stored.fileName) || media.fileName || b.fileName || '';
  var kind = entry.kind;
  if ((kind === 'image' || kind === 'sticker') && src) {
    var img = el('img', kind === 'sticker' ? 'sticker' : ''); img.src = src; img.alt = (stored && stored.caption) || media.caption || kind;
    body.appendChild(img);
  } else if (kind === 'video' && src) {
    var video = el('video'); video.controls = true; video.preload = 'metadata'; video.src = src;
    body.appendChild(video);
  } else if (kind === 'audio' && src) {
    var audio = el('audio'); audio.controls = true; audio.preload = 'metadata'; audio.src = src;
    body.appendChild(audio);
  } else {
    var file = el('div', 'file');
    file.appendChild(el('b', '', kind));
    var label = name || (stored && stored.mimetype) || media.mimetype || kind;
    if (src) { var a = el('a', '', label); a.href = src; a.download = name || ''; a.target = '_blank'; file.appendChild(a); }
    else file.appendChild(el('span', '', label));
    body.appendChild(file);
  }
  var caption = (stored && stored.caption) || media.caption || (entry.direction === 'out' ? b.caption : b.text);
  if (caption) { var c = formatted(el('div', 'content'), caption); c.setAttribute('data-text', str(caption)); body.appendChild(c); }
}

function renderContacts(body, b) {
  (b.contact || []).forEach(function (c) {
    var card = el('div', 'contact');
    card.appendChild(el('div', 'avatar', str(c.fullName).slice(0, 1).toUpperCase() || '?'));
    var info = el('div', '');
    info.appendChild(el('div', 'title', str(c.fullName)));
    [c.phoneNumber, c.organization, c.email, c.url].forEach(function (v) { if (v) info.appendChild(el('small', '', str(v))); });
    card.appendChild(info);
    body.appendChild(card);
  });
}

function renderPoll(body, b) {
  body.appendChild(el('div', 'title', '📊 ' + str(b.name)));
  var count = Number(b.selectableCount) || 0;
  line(body, 'footer', count === 1 ? 'Select one option' : count === 0 ? 'Select any options' : 'Select up to ' + count + ' options');
  var list = el('div', 'poll');
  (b.values || []).forEach(function (v) { list.appendChild(el('div', 'option', '○ ' + str(v))); });
  body.appendChild(list);
}

/** Whether a person could answer this bubble by a tap: something sent to a contact (not a group, not a status). */
function canAnswer(entry) {
  return entry.direction === 'out' && !isGroup(entry.chat) && str(entry.chat) !== 'status@broadcast';
}

/** A button that sends `choice` as the contact the message went to (its conversation), as a person taps it. */
function choiceButton(choice, entry, cls) {
  var button = /** @type {HTMLButtonElement} */ (el('button', cls, choice));
  button.type = 'button';
  button.setAttribute('data-testid', 'choice');
  button.title = 'Send "' + choice + '" as this contact';
  button.addEventListener('click', function () {
    var contact = phoneOfLid[str(entry.chat)] || str(entry.chat);
    sendAs(choice, isLid(contact) ? contact : contact.split('@')[0], isLid(contact) ? '' : (lidOfPhone[contact] || ''));
  });
  return button;
}

/** A poll's options as buttons under it. */
function replyChoices(choices, entry) {
  if (!choices.length || !canAnswer(entry)) return null;
  var row = el('div', 'choices reply-choices');
  choices.forEach(function (choice) { row.appendChild(choiceButton(choice, entry, 'choice reply-choice')); });
  return row;
}

function notice(entry, b) {
  switch (entry.kind) {
    case 'presence': {
      var p = b.presence || (b.options && b.options.presence);
      var words = { composing: 'typing…', recording: 'recording audio…', available: 'online', unavailable: 'offline', paused: 'stopped typing' };
      return (words[p] || p || 'presence') + ' · sent to ' + chatLabel(entry.chat) + (entry.text && /[(]/.test(entry.text) ? ' ' + entry.text.slice(entry.text.indexOf('(')) : '');
    }
    case 'reaction': {
      var key = b.key || {};
      var t = target(key.id);
      var what = t ? '“' + short(textOf(t), 40) + '”' : 'message ' + key.id;
      if (t) {
        var badge = t.querySelector('.reactions');
        if (!b.reaction) { if (badge) badge.remove(); t.classList.remove('reacted'); }
        else { if (!badge) { badge = el('span', 'reactions'); t.appendChild(badge); } badge.textContent = b.reaction; t.classList.add('reacted'); }
      }
      return b.reaction ? 'reacted ' + b.reaction + ' to ' + what : 'removed the reaction from ' + what;
    }
    case 'edit': {
      var k = b.key || {};
      var e = target(k.id);
      var before = e ? textOf(e) : '';
      if (e && e.getAttribute('data-kind') === 'text') {
        var content = e.querySelector('.content');
        formatted(content, b.text); content.setAttribute('data-text', str(b.text));
        var meta = e.querySelector('.meta');
        if (meta && !meta.querySelector('.edited')) meta.insertBefore(el('span', 'edited', 'edited'), meta.firstChild);
      }
      return before ? 'edited “' + short(before, 40) + '” → “' + short(b.text, 60) + '”' : 'edited message ' + k.id + ' → “' + short(b.text, 60) + '”';
    }
    case 'archive':
      return (b.archive ? 'archived' : 'unarchived') + ' the chat with ' + chatLabel(entry.chat);
    case 'read': {
      var r = target(entry.messageId);
      if (r) { r.classList.add('read'); var rm = r.querySelector('.meta'); if (rm && !rm.querySelector('.ticks')) rm.appendChild(el('span', 'ticks', ' ✓✓ read')); }
      return 'marked ' + (r ? '“' + short(textOf(r), 40) + '”' : 'message ' + entry.messageId) + ' as read';
    }
    case 'delete': {
      var d = target(entry.messageId);
      var was = d ? textOf(d) : '';
      if (d) { d.classList.add('deleted'); var dc = d.querySelector('.content'); if (dc) { dc.textContent = '🚫 This message was deleted'; } }
      return 'deleted ' + (was ? '“' + short(was, 40) + '”' : 'message ' + entry.messageId) + ' for everyone';
    }
    case 'unread':
      return 'marked the chat with ' + chatLabel(entry.chat) + ' as unread';
  }
  return entry.text;
}

function render(entry) {
  var b = entry.body || {};
  var isNotice = ['presence', 'reaction', 'edit', 'archive', 'read', 'delete', 'unread', 'profile'].indexOf(entry.kind) >= 0;
  var div = el('div', 'bubble ' + entry.direction + ' ' + entry.kind + (isNotice ? ' notice' : ''));
  div.setAttribute('data-testid', 'bubble-' + entry.direction);
  div.setAttribute('data-kind', entry.kind);
  div.setAttribute('data-seq', entry.seq);
  if (entry.messageId) div.setAttribute('data-message-id', entry.messageId);
  if (entry.direction === 'in') learn(b.from, b.lid);
  var conversation = conversationOf(entry, b);
  div.setAttribute('data-contact', conversation);
  var sender = entry.direction + ' ' + conversation + ' ' + str(b.from) + (b.fromMe ? ' owner' : '');
  if (!isNotice && (!last || last.sender !== sender)) {
    div.className += ' first';
    if (entry.direction === 'in') {
      var who = el('div', 'who', b.fromMe ? 'the phone\'s owner' : entry.pushName || 'contact');
      var where = b.from ? contactLabel(jidOf(b.from)) : chatLabel(entry.chat);
      if (isGroup(entry.chat)) where += ' in ' + chatLabel(entry.chat);
      who.appendChild(el('small', '', ' · ' + where));
      div.appendChild(who);
    } else {
      div.appendChild(el('div', 'who', entry.kind === 'status' ? 'your status' : 'to ' + addressLabel(entry.chat)));
    }
  }
  if (!isNotice) last = { sender: sender };
  var body = el('div', 'body');
  var extra = null;
  switch (entry.kind) {
    case 'list': extra = renderList(body, b, entry); break;
    case 'buttons': extra = renderButtons(body, b, entry); break;
    case 'location': renderLocation(body, b); break;
    case 'status': renderStatus(body, b); break;
    case 'image': case 'audio': case 'video': case 'document': case 'sticker': renderMedia(body, entry, b); break;
    case 'contact': renderContacts(body, b); break;
    case 'poll': renderPoll(body, b); extra = replyChoices((b.values || []).map(str), entry); break;
    case 'text': {
      var q = b.quoted;
      if (q && q.key) {
        var qt = target(q.key.id);
        var qm = q.message || {};
        var quoted = qt ? textOf(qt) : (qm.conversation || (qm.extendedTextMessage && qm.extendedTextMessage.text) || 'message ' + q.key.id);
        body.appendChild(el('div', 'quote', quoted));
      }
      var text = entry.direction === 'out' ? str(b.text !== undefined ? b.text : entry.text) : entry.text;
      var c = formatted(el('div', 'content'), text); c.setAttribute('data-text', text);
      body.appendChild(c);
      break;
    }
    default: {
      var d = el('div', 'content', isNotice ? notice(entry, b) : entry.text);
      body.appendChild(d);
    }
  }
  // the readable text of every bubble lives in .content
  if (!body.querySelector('.content')) {
    var summary = el('div', 'content');
    summary.style.display = 'none';
    summary.textContent = entry.text;
    body.appendChild(summary);
  }
  div.appendChild(body);
  var meta = el('div', 'meta', time(entry));
  div.appendChild(meta);
  if (extra) div.appendChild(extra);
  return div;
}

function clear() {
  box.textContent = '';
  last = null;
  box.appendChild(el('div', 'empty', EMPTY)).id = 'empty';
}
