/**
 * The self-contained chat page served at GET /chat (inline CSS and JS, no external assets).
 *
 * A person picks an instance, types a message as a contact (the "from" number) and presses
 * Send: the page POSTs /_sandbox/messages, the sandbox delivers MESSAGES_UPSERT to the
 * instance's webhook (e.g. an n8n trigger), and everything the workflow sends back through
 * the interface shows up live via the SSE stream GET /_sandbox/chat/stream.
 *
 * Stable hooks for browser tests: #instance, #from, #pushName, #message, #send, #reset,
 * #messages, .bubble.in / .bubble.out (data-testid bubble-in / bubble-out, data-kind,
 * data-seq), #status (connection state of the stream).
 */
export const CHAT_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox chat</title>
<style>
  :root { --bg:#efeae2; --in:#ffffff; --out:#d9fdd3; --bar:#075e54; --muted:#667781; }
  * { box-sizing: border-box; }
  body { margin:0; font:15px/1.4 system-ui, -apple-system, Segoe UI, Roboto, sans-serif; background:var(--bg); height:100vh; display:flex; flex-direction:column; }
  header { background:var(--bar); color:#fff; padding:8px 12px; display:flex; gap:8px; align-items:center; flex-wrap:wrap; }
  header h1 { font-size:16px; margin:0 12px 0 0; }
  header label { font-size:12px; opacity:.85; display:flex; flex-direction:column; }
  header input, header select { font:inherit; padding:3px 6px; border-radius:4px; border:0; min-width:9em; }
  header button { margin-left:auto; }
  #status { font-size:12px; padding:2px 8px; border-radius:10px; background:#ffffff33; }
  #messages { flex:1; overflow-y:auto; padding:12px 6%; display:flex; flex-direction:column; gap:6px; }
  .bubble { max-width:70%; padding:6px 9px 4px; border-radius:8px; box-shadow:0 1px .5px #0002; white-space:pre-wrap; word-wrap:break-word; }
  .bubble.in { align-self:flex-start; background:var(--in); }
  .bubble.out { align-self:flex-end; background:var(--out); }
  .bubble .who { font-size:12px; font-weight:600; color:#1f7aec; }
  .bubble .meta { font-size:11px; color:var(--muted); text-align:right; margin-top:2px; }
  .bubble .meta.bad { color:#c0392b; }
  .bubble .title { font-weight:600; }
  .bubble .footer { font-size:12px; color:var(--muted); }
  .bubble .choices { display:flex; flex-direction:column; gap:4px; margin-top:6px; }
  .bubble .choice { border-top:1px solid #0001; padding-top:4px; color:#027eb5; text-align:center; }
  .bubble .row { font-size:13px; padding:2px 0; }
  .bubble .row small { color:var(--muted); }
  .bubble .section { font-size:12px; font-weight:600; color:var(--muted); margin-top:4px; }
  .bubble img { max-width:240px; display:block; border-radius:6px; }
  .bubble.presence, .bubble.reaction, .bubble.edit, .bubble.archive { font-style:italic; background:transparent; box-shadow:none; color:var(--muted); font-size:13px; }
  .bubble.status { border-left:4px solid #25d366; }
  footer { display:flex; gap:8px; padding:8px 12px; background:#f0f2f5; }
  footer textarea { flex:1; font:inherit; padding:8px 10px; border-radius:8px; border:1px solid #ccc; resize:none; height:42px; }
  footer button, header button { font:inherit; padding:6px 16px; border-radius:8px; border:0; background:#25d366; color:#fff; cursor:pointer; }
  header button { background:#ffffff33; }
  .empty { margin:auto; color:var(--muted); text-align:center; }
</style>
</head>
<body>
<header>
  <h1>Sandbox chat</h1>
  <label>instance <select id="instance" data-testid="instance"></select></label>
  <label>from (contact number) <input id="from" data-testid="from" value="5511999990000" autocomplete="off"></label>
  <label>name <input id="pushName" data-testid="pushName" value="Sandbox Contact" autocomplete="off"></label>
  <span id="status" data-testid="status">connecting…</span>
  <button id="reset" data-testid="reset" title="Clear the chat log and recorded requests">Clear</button>
</header>
<div id="messages" data-testid="messages"><div class="empty" id="empty">No messages yet. Type below as the contact and press Send.</div></div>
<footer>
  <textarea id="message" data-testid="message" placeholder="Type a message as the contact… (Enter sends, Shift+Enter new line)"></textarea>
  <button id="send" data-testid="send">Send</button>
</footer>
<script>
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var box = $('messages');
  var source = null;
  var pending = {};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function time(entry) { return new Date(entry.at).toLocaleTimeString(); }
  function chatLabel(jid) { return String(jid || '').split('@')[0]; }

  function render(entry) {
    var b = entry.body || {};
    var div = el('div', 'bubble ' + entry.direction + ' ' + entry.kind);
    div.setAttribute('data-testid', 'bubble-' + entry.direction);
    div.setAttribute('data-kind', entry.kind);
    div.setAttribute('data-seq', entry.seq);
    if (entry.messageId) div.setAttribute('data-message-id', entry.messageId);
    if (entry.direction === 'in') div.appendChild(el('div', 'who', (entry.pushName || 'contact') + ' · ' + chatLabel(entry.chat)));
    else div.appendChild(el('div', 'who', 'to ' + chatLabel(entry.chat)));
    var body = el('div', 'content');
    switch (entry.kind) {
      case 'list':
        body.appendChild(el('div', 'title', b.title));
        body.appendChild(el('div', '', b.description));
        (b.sections || b.values || []).forEach(function (s) {
          body.appendChild(el('div', 'section', s.title));
          (s.rows || []).forEach(function (r) {
            var row = el('div', 'row', '• ' + r.title + ' ');
            if (r.description) row.appendChild(el('small', '', r.description));
            body.appendChild(row);
          });
        });
        if (b.footerText) body.appendChild(el('div', 'footer', b.footerText));
        var lc = el('div', 'choices'); lc.appendChild(el('div', 'choice', '☰ ' + (b.buttonText || 'Open'))); body.appendChild(lc);
        break;
      case 'buttons':
        body.appendChild(el('div', 'title', b.title));
        body.appendChild(el('div', '', b.description));
        if (b.footer) body.appendChild(el('div', 'footer', b.footer));
        var bc = el('div', 'choices');
        (b.buttons || []).forEach(function (x) { bc.appendChild(el('div', 'choice', x.displayText || x.title)); });
        body.appendChild(bc);
        break;
      case 'location':
        body.appendChild(el('div', 'title', '📍 ' + b.name));
        body.appendChild(el('div', '', b.address));
        body.appendChild(el('div', 'footer', b.latitude + ', ' + b.longitude));
        break;
      case 'image':
        var media = b.media || {};
        if (media.base64) { var img = el('img'); img.src = 'data:' + media.mimetype + ';base64,' + media.base64; img.alt = 'image'; body.appendChild(img); }
        if (entry.text) body.appendChild(el('div', '', entry.text));
        break;
      case 'status':
        body.appendChild(el('div', 'title', 'Status post (' + b.type + ')'));
        body.appendChild(el('div', '', b.content));
        break;
      case 'presence':
        body.textContent = (b.presence || (b.options && b.options.presence)) === 'composing' ? 'typing…' : entry.text;
        break;
      default:
        body.textContent = entry.text;
    }
    div.appendChild(body);
    div.appendChild(el('div', 'meta', time(entry)));
    return div;
  }

  function add(entry) {
    var empty = $('empty'); if (empty) empty.remove();
    var stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 40;
    var node = render(entry);
    box.appendChild(node);
    if (entry.direction === 'in' && entry.messageId && pending[entry.messageId]) {
      pending[entry.messageId](node); delete pending[entry.messageId];
    }
    if (stick) box.scrollTop = box.scrollHeight;
  }

  function clear() {
    box.textContent = '';
    box.appendChild(el('div', 'empty', 'No messages yet. Type below as the contact and press Send.')).id = 'empty';
  }

  function connect() {
    if (source) source.close();
    clear();
    var inst = $('instance').value;
    source = new EventSource('/_sandbox/chat/stream?instance=' + encodeURIComponent(inst));
    source.addEventListener('entry', function (ev) { add(JSON.parse(ev.data)); });
    source.addEventListener('reset', clear);
    source.onopen = function () { $('status').textContent = 'live'; };
    source.onerror = function () { $('status').textContent = 'reconnecting…'; };
  }

  function markDelivery(node, result) {
    var d = result && result.delivered;
    var meta = node.querySelector('.meta');
    if (!meta || !d) return;
    meta.textContent += d.ok ? ' ✓ delivered' : ' ✗ ' + d.reason;
    if (!d.ok) meta.className = 'meta bad';
  }

  function send() {
    var text = $('message').value;
    var from = $('from').value.trim();
    if (!text.trim() || !from) return;
    $('message').value = '';
    var id = '3A' + Array.from(crypto.getRandomValues(new Uint8Array(9))).map(function (x) { return ('0' + x.toString(16)).slice(-2); }).join('').toUpperCase();
    var shown = null, result = null;
    pending[id] = function (node) { shown = node; if (result) markDelivery(node, result); };
    fetch('/_sandbox/messages', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ instance: $('instance').value, from: from, text: text, pushName: $('pushName').value || undefined, id: id })
    }).then(function (r) { return r.json(); }).then(function (r) {
      result = r; if (shown) markDelivery(shown, r);
    }).catch(function (e) { $('status').textContent = 'send failed: ' + e.message; });
  }

  $('send').addEventListener('click', send);
  $('message').addEventListener('keydown', function (e) { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); send(); } });
  $('instance').addEventListener('change', connect);
  $('reset').addEventListener('click', function () { fetch('/_sandbox/reset', { method: 'POST' }); });

  fetch('/_sandbox/state').then(function (r) { return r.json(); }).then(function (state) {
    var sel = $('instance');
    var wanted = new URLSearchParams(location.search).get('instance');
    state.instances.forEach(function (i) {
      var o = el('option', '', i.name + (i.webhook && i.webhook.enabled ? '' : ' (no webhook)'));
      o.value = i.name; sel.appendChild(o);
    });
    if (wanted) sel.value = wanted;
    document.title = 'Sandbox chat (' + state.dialect + ')';
    connect();
  });
})();
</script>
</body>
</html>
`;
