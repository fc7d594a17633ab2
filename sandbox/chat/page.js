// @ts-check
// The page's live side: the chat log's stream (SSE) into bubbles, the composer that sends as the
// contact (a text, or a photo, voice note or document from the attach menu), the instance picker
// with its no-webhook banner, and the startup. Runs last of the
// page's scripts (see contacts.js), so the DOM helpers and renderers it calls are all defined.

/** A form field of the page: #instance (select), #message (textarea), #from, #lid and #pushName (inputs); all have `value`. */
var field = function (/** @type {string} */ id) { return /** @type {HTMLInputElement} */ ($(id)); };
var source = null;
var pending = {};

// an inline icon, so the browser does not ask for /favicon.ico
var icon = document.createElement('link');
icon.rel = 'icon';
icon.href = 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="6" fill="#008069"/><path fill="#fff" d="M6 6h12a1.5 1.5 0 0 1 1.5 1.5v7A1.5 1.5 0 0 1 18 16h-7l-4 3v-3H6a1.5 1.5 0 0 1-1.5-1.5v-7A1.5 1.5 0 0 1 6 6z"/></svg>');
document.head.appendChild(icon);

function add(entry) {
  var empty = $('empty'); if (empty) empty.remove();
  var stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 60;
  var node = render(entry);
  box.appendChild(node);
  // the verdict the sandbox kept with the message (a reload, or a message sent from the CLI)
  if (entry.direction === 'in' && entry.delivered) markDelivery(node, entry);
  noteChat(node);
  if (entry.direction === 'in' && entry.messageId && pending[entry.messageId]) {
    pending[entry.messageId](node); delete pending[entry.messageId];
  }
  if (stick || entry.direction === 'in') box.scrollTop = box.scrollHeight;
}

function setStatus(text, cls) { var s = $('status'); s.textContent = text; s.className = cls || ''; }

function connect() {
  if (source) source.close();
  clear();
  clearChats();
  var inst = field('instance').value;
  source = new EventSource('/_sandbox/chat/stream?instance=' + encodeURIComponent(inst));
  source.addEventListener('entry', function (ev) { add(JSON.parse(ev.data)); });
  source.addEventListener('reset', function () { clear(); clearChats(); });
  source.onopen = function () { setStatus('live', 'live'); };
  source.onerror = function () { setStatus('reconnecting…', 'down'); };
  hint();
}

function markDelivery(node, result) {
  var d = result && result.delivered;
  var meta = node.querySelector('.meta');
  if (!meta || !d || meta.querySelector('.ok, .bad')) return;
  var mark = el('span', d.ok ? 'ok' : 'bad', d.ok ? ' ✓ delivered' : ' ✗ ' + d.reason);
  if (!d.ok) { mark.title = 'The sandbox could not deliver MESSAGES_UPSERT to the instance\'s webhook'; meta.className = 'meta bad'; }
  meta.appendChild(mark);
}

function autosize() { var t = field('message'); t.style.height = '42px'; if (t.value) t.style.height = Math.min(t.scrollHeight + 2, 160) + 'px'; }

/** The contact the composer sends as, checked: { from, lid }, or null (and the field to mend has the focus). */
function contact() {
  var from = field('from').value.trim();
  var lid = field('lid').value.trim();
  if (!from) { $('from').focus(); return null; }
  if (lid && !isLid(lidJidOf(lid))) { setStatus('a LID ends in @lid (or give its digits)', 'down'); $('lid').focus(); return null; }
  if (lid && isLid(jidOf(from))) { setStatus('From is already a LID: give the phone number in From, or leave LID empty', 'down'); $('lid').focus(); return null; }
  if (lid) learn(from, lid);
  return { from: from, lid: lid };
}

function send() {
  var text = field('message').value;
  if (!text.trim()) return;
  var who = contact();
  if (!who) return;
  field('message').value = '';
  autosize();
  sendAs(text, who.from, who.lid);
}

/** Sends `text` as the contact `from` (with its LID, if known by one) to the instance's webhook. */
function sendAs(text, from, lid) { deliver({ text: text }, from, lid); }

/**
 * Sends a message as the contact, as the sandbox's POST /_sandbox/messages takes it (`text`, or
 * `media`: what `cli.ts send --image/--file` sends): the sandbox delivers MESSAGES_UPSERT as the
 * server would, and its bubble arrives over the stream, marked delivered or not.
 */
function deliver(content, from, lid) {
  var id = '3A' + Array.from(crypto.getRandomValues(new Uint8Array(9))).map(function (x) { return ('0' + x.toString(16)).slice(-2); }).join('').toUpperCase();
  var shown = null, result = null;
  pending[id] = function (node) { shown = node; if (result) markDelivery(node, result); };
  var owner = field('fromMe').checked;
  var message = { instance: field('instance').value, from: from, pushName: owner ? undefined : field('pushName').value || undefined, id: id, lid: lid ? lidJidOf(lid) : undefined, fromMe: owner || undefined };
  fetch('/_sandbox/messages', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(Object.assign(message, content))
  }).then(function (r) { return r.json(); }).then(function (r) {
    if (r.error) { setStatus('send failed: ' + r.error, 'down'); return; }
    result = r; if (shown) markDelivery(shown, r);
    refresh();
  }).catch(function (e) { setStatus('send failed: ' + e.message, 'down'); });
}

// The attach menu: what each entry sends, and the file picker it opens.
var ATTACH = {
  photo: { kind: 'image', input: 'file-photo', caption: true },
  voice: { kind: 'audio', input: 'file-voice', caption: false },
  document: { kind: 'document', input: 'file-document', caption: true }
};
/** The sandbox takes a request of 50 MB at most; a file's base64 is a third larger. */
var MAX_ATTACH_BYTES = 30 * 1024 * 1024;
var TYPE_OF = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', mp3: 'audio/mpeg', m4a: 'audio/mp4', wav: 'audio/wav', pdf: 'application/pdf', txt: 'text/plain' };

/** The MIME type a file goes with: a voice note's Ogg/Opus as the phone records it, else the browser's or its extension's. */
function mimetypeOf(file, kind) {
  var ext = (/\.([a-z0-9]+)$/i.exec(file.name) || ['', ''])[1].toLowerCase();
  if (kind === 'audio' && (ext === 'ogg' || ext === 'opus' || /^audio\/(ogg|opus)/.test(file.type))) return 'audio/ogg; codecs=opus';
  return file.type || TYPE_OF[ext] || (kind === 'image' ? 'image/jpeg' : 'application/octet-stream');
}

function openAttachMenu(open) {
  $('attach-menu').hidden = !open;
  $('attach').setAttribute('aria-expanded', open ? 'true' : 'false');
}

/** Sends the file picked for an attach entry as the contact; a photo's or document's caption is the composer's text. */
function attach(what, file) {
  var how = ATTACH[what];
  if (!file) return;
  if (file.size === 0) { setStatus('send failed: ' + file.name + ' is empty', 'down'); return; }
  if (file.size > MAX_ATTACH_BYTES) { setStatus('send failed: ' + file.name + ' is larger than 30 MB, more than the sandbox takes', 'down'); return; }
  var who = contact();
  if (!who) return;
  var reader = new FileReader();
  reader.onerror = function () { setStatus('send failed: could not read ' + file.name, 'down'); };
  reader.onload = function () {
    var url = String(reader.result);
    var media = { kind: how.kind, mimetype: mimetypeOf(file, how.kind), base64: url.slice(url.indexOf(',') + 1) };
    if (how.kind === 'document') media.fileName = file.name;
    var caption = field('message').value;
    if (how.caption && caption.trim()) { media.caption = caption; field('message').value = ''; autosize(); }
    deliver({ media: media }, who.from, who.lid);
  };
  reader.readAsDataURL(file);
}

var instances = {};
function hint() {
  var h = $('hint');
  var name = field('instance').value;
  var i = instances[name];
  $('scan').hidden = !(i && i.connection === 'connecting');
  if (!i || (i.webhook && i.webhook.enabled && (i.webhook.events || []).indexOf('MESSAGES_UPSERT') >= 0)) { h.hidden = true; return; }
  h.hidden = false;
  h.textContent = 'Instance "' + name + '" has no webhook for MESSAGES_UPSERT yet: what you send is shown here but not delivered. Activate a workflow with the Messaging Instance Trigger (or call Set Webhook) and it will be.';
}

function refresh(first) {
  return fetch('/_sandbox/state').then(function (r) { return r.json(); }).then(function (state) {
    var sel = field('instance');
    instances = {};
    state.instances.forEach(function (i) {
      instances[i.name] = i;
      var label = i.name + (i.webhook && i.webhook.enabled ? '' : ' (no webhook)');
      var o = /** @type {HTMLOptionElement | null} */ (sel.querySelector('option[value="' + i.name.replace(/["\\]/g, '') + '"]'));
      if (!o) { o = /** @type {HTMLOptionElement} */ (el('option')); o.value = i.name; sel.appendChild(o); }
      if (o.textContent !== label) o.textContent = label;
    });
    if (first) {
      var wanted = new URLSearchParams(location.search).get('instance');
      if (wanted && instances[wanted]) sel.value = wanted;
      document.title = 'Sandbox chat (' + state.dialect + ')';
      $('dialect').textContent = state.dialect + ' dialect · ' + location.host;
    }
    hint();
  }).catch(function () { /* the next poll tries again */ });
}

function who() {
  var lid = field('lid').value.trim();
  $('as').textContent = 'as ' + (field('pushName').value || 'contact') + ' · ' + field('from').value + (lid ? ' · LID ' + lid.replace(/@lid$/, '') : '');
}

$('send').addEventListener('click', send);
$('attach').addEventListener('click', function () { openAttachMenu($('attach-menu').hidden); });
document.addEventListener('click', function (e) { if (!$('attach').parentElement.contains(/** @type {Node} */ (e.target))) openAttachMenu(false); });
document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !$('attach-menu').hidden) { openAttachMenu(false); $('attach').focus(); } });
Object.keys(ATTACH).forEach(function (what) {
  var input = field(ATTACH[what].input);
  document.querySelector('[data-attach="' + what + '"]').addEventListener('click', function () { openAttachMenu(false); input.click(); });
  input.addEventListener('change', function () { attach(what, input.files && input.files[0]); input.value = ''; });
});
$('message').addEventListener('keydown', function (e) { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); } });
$('message').addEventListener('input', autosize);
$('from').addEventListener('input', who);
$('pushName').addEventListener('input', who);
$('lid').addEventListener('input', who);
$('instance').addEventListener('change', connect);
$('reset').addEventListener('click', function () { fetch('/_sandbox/reset', { method: 'POST' }); });
$('scan').addEventListener('click', function () {
  fetch('/_sandbox/scan', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ instance: field('instance').value }) })
    .then(function (r) { return r.json(); })
    .then(function (r) { setStatus(r.error ? 'scan failed: ' + r.error : field('instance').value + ' connected', r.error ? 'down' : 'live'); refresh(); });
});
who();
clear();
refresh(true).then(connect);
setInterval(refresh, 4000);
