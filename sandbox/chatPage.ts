/**
 * The self-contained chat page served at GET /chat (inline CSS and JS, no external assets).
 *
 * A person picks an instance, types a message as a contact (the "from" number) and presses
 * Send: the page POSTs /_sandbox/messages, the sandbox delivers MESSAGES_UPSERT to the
 * instance's webhook (e.g. an n8n trigger), and everything the workflow sends back through
 * the interface shows up live via the SSE stream GET /_sandbox/chat/stream.
 *
 * What the workflow sends is drawn the way a phone would show it: texts (with the quoted
 * message), lists (sections and rows), buttons, locations (with an OpenStreetMap link),
 * status posts (in their background colour). Reactions show as a badge on the message they
 * react to; edits replace the edited text (marked "edited"); presence ("typing…"), edits,
 * reactions and archiving also show as small centred notices. Media of both directions show
 * from the stored file (GET /_sandbox/media/…): images and stickers inline, video and audio
 * with players, documents by name with a link; contacts as cards, polls with their options. A banner warns when the instance has no webhook registered (the page
 * polls GET /_sandbox/state every few seconds).
 *
 * Stable hooks for browser tests: #instance, #from, #pushName, #message, #send, #reset,
 * #messages, #status (connection state of the stream: "live" once connected), #hint (the
 * no-webhook banner), .bubble.in / .bubble.out (data-testid bubble-in / bubble-out,
 * data-kind, data-seq, data-message-id), .bubble .content (the readable text of a bubble),
 * .bubble .meta (time, "✓ delivered" / "✗ <reason>" on incoming bubbles), .reactions.
 *
 * Keep this page free of `<script src=` / `<link href=` (the sandbox tests check it). The inline
 * script lives in a template literal: no backticks or `${`, and every backslash written twice.
 */
export const CHAT_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox chat</title>
<style>
  :root {
    --bg:#efeae2; --in:#ffffff; --out:#d9fdd3; --bar:#008069; --bar-dark:#075e54; --accent:#25d366;
    --text:#111b21; --muted:#667781; --link:#027eb5; --notice:#ffffffd9; --bad:#c0392b;
  }
  * { box-sizing:border-box; }
  html, body { height:100%; }
  body { margin:0; font:15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color:var(--text);
    background:var(--bg); display:flex; flex-direction:column; }
  header { background:var(--bar); color:#fff; padding:8px 16px; display:flex; gap:10px 14px; align-items:flex-end; flex-wrap:wrap; box-shadow:0 1px 3px #0003; z-index:1; }
  header .brand { display:flex; align-items:center; gap:10px; margin-right:8px; align-self:center; }
  header .avatar { width:36px; height:36px; border-radius:50%; background:#ffffff2e; display:flex; align-items:center; justify-content:center; }
  header h1 { font-size:17px; margin:0; font-weight:600; line-height:1.2; }
  header .sub { font-size:12px; opacity:.8; }
  header label { font-size:11px; letter-spacing:.02em; text-transform:uppercase; opacity:.95; display:flex; flex-direction:column; gap:3px; }
  header input, header select { font:14px/1.2 inherit; font-family:inherit; color:var(--text); padding:6px 8px; border-radius:6px; border:0; width:10.5em; background:#fff; }
  header select { width:auto; min-width:8em; max-width:14em; }
  header input:focus, header select:focus, footer textarea:focus { outline:2px solid var(--accent); outline-offset:0; }
  .spacer { flex:1; }
  #status { font-size:12px; padding:3px 10px; border-radius:12px; background:#ffffff2e; align-self:center; white-space:nowrap; }
  #status::before { content:""; display:inline-block; width:8px; height:8px; border-radius:50%; background:#ffd54f; margin-right:6px; vertical-align:1px; }
  #status.live::before { background:#7cfc9a; }
  #status.down::before { background:#ff8a80; }
  #hint { background:#fff3c4; color:#5c4a00; font-size:13px; padding:7px 16px; border-bottom:1px solid #0000001a; }
  #hint[hidden] { display:none; }
  #messages { flex:1; overflow-y:auto; padding:16px max(12px, 6%); display:flex; flex-direction:column; gap:3px; }
  .bubble { position:relative; max-width:min(65%, 560px); min-width:90px; padding:6px 9px 5px; border-radius:8px; box-shadow:0 1px .5px #0b141a21; word-wrap:break-word; overflow-wrap:anywhere; margin-top:2px; }
  .bubble.first { margin-top:8px; }
  .bubble.list, .bubble.buttons { min-width:min(220px, 85%); }
  .bubble.in { align-self:flex-start; background:var(--in); }
  .bubble.out { align-self:flex-end; background:var(--out); }
  .bubble.in.first { border-top-left-radius:0; }
  .bubble.out.first { border-top-right-radius:0; }
  .bubble .who { font-size:12.5px; font-weight:600; color:#1f7aec; margin-bottom:1px; }
  .bubble.out .who { color:#128c7e; }
  .bubble .who small { font-weight:400; color:var(--muted); }
  .bubble .content { white-space:pre-wrap; }
  .bubble .meta { font-size:11px; color:var(--muted); text-align:right; margin-top:2px; white-space:nowrap; }
  .bubble .meta .ok { color:#34b7f1; }
  .bubble .meta.bad { white-space:normal; }
  .bubble .meta .bad { color:var(--bad); }
  .bubble .title { font-weight:600; }
  .bubble .footer { font-size:12.5px; color:var(--muted); margin-top:2px; }
  .bubble .choices { display:flex; flex-direction:column; margin:6px -9px -2px; }
  .bubble .choice { border-top:1px solid #0000001a; padding:7px 9px; color:var(--link); text-align:center; font-weight:500; }
  .bubble .section { font-size:11.5px; font-weight:600; letter-spacing:.03em; text-transform:uppercase; color:var(--muted); margin-top:6px; }
  .bubble .row { padding:3px 0 3px 10px; border-left:2px solid #00000014; margin-top:2px; }
  .bubble .row small { display:block; color:var(--muted); font-size:12.5px; }
  .bubble .quote { background:#0000000d; border-left:4px solid #06cf9c; border-radius:6px; padding:4px 8px; margin:2px 0 4px; font-size:13px; color:var(--muted); white-space:pre-wrap; max-height:4.2em; overflow:hidden; }
  .bubble .edited { font-style:italic; margin-right:4px; }
  .bubble img { display:block; max-width:min(100%, 260px); max-height:260px; min-width:48px; min-height:48px; object-fit:contain; border-radius:6px; margin:2px 0 4px; background:#0000000d; }
  .bubble .file { display:flex; align-items:center; gap:8px; background:#0000000d; border-radius:6px; padding:8px; margin:2px 0 4px; }
  .bubble img.sticker { background:none; max-width:160px; max-height:160px; }
  .bubble video { display:block; max-width:min(100%, 320px); max-height:260px; border-radius:6px; margin:2px 0 4px; background:#000; }
  .bubble audio { display:block; width:min(280px, 100%); margin:2px 0 4px; }
  .bubble .file a { color:var(--link); text-decoration:none; word-break:break-all; }
  .bubble .contact { display:flex; gap:10px; align-items:center; background:#0000000d; border-radius:6px; padding:8px; margin:2px 0 4px; }
  .bubble .contact .avatar { width:36px; height:36px; border-radius:50%; background:#7c8c95; color:#fff; display:flex; align-items:center; justify-content:center; font-weight:600; }
  .bubble .contact small { display:block; color:var(--muted); font-size:12.5px; }
  .bubble .poll .option { border:1px solid #0000001a; border-radius:6px; padding:5px 8px; margin-top:4px; }
  .bubble .file b { font-size:11px; background:#7c8c95; color:#fff; border-radius:4px; padding:2px 5px; text-transform:uppercase; }
  .bubble.location .map { display:flex; align-items:center; justify-content:center; height:96px; margin:2px -5px 6px; border-radius:6px;
    background:repeating-linear-gradient(0deg, #0000 0 23px, #ffffff99 23px 25px), repeating-linear-gradient(90deg, #0000 0 23px, #ffffff99 23px 25px), #cfe3c3; }
  .bubble.location a { color:var(--link); font-size:13px; text-decoration:none; }
  .bubble.location a:hover { text-decoration:underline; }
  .bubble.location .coords { font-size:12.5px; color:var(--muted); font-variant-numeric:tabular-nums; }
  .bubble.status .card { border-radius:6px; padding:18px 12px; margin:2px -5px 4px; text-align:center; font-size:17px; color:#fff; background:#54656f; white-space:pre-wrap; }
  .bubble.status .footer { text-align:left; }
  .bubble.notice { align-self:center; max-width:80%; min-width:0; background:var(--notice); color:var(--muted); font-size:12.5px; text-align:center; padding:4px 12px; border-radius:8px; margin:6px 0; }
  .bubble.notice .body, .bubble.notice .content { display:inline; }
  .bubble.notice .meta { display:inline; margin-left:8px; }
  .bubble.notice .who { display:none; }
  .reactions { position:absolute; bottom:-12px; right:8px; background:#fff; border-radius:12px; padding:0 6px; font-size:14px; line-height:22px; box-shadow:0 1px 2px #0003; }
  .bubble.reacted { margin-bottom:12px; }
  .bubble .ticks { color:#53bdeb; }
  .bubble.deleted .content { font-style:italic; opacity:.7; }
  footer { display:flex; gap:8px; padding:10px 16px; background:#f0f2f5; align-items:flex-end; border-top:1px solid #0000000f; }
  footer .as { font-size:12px; color:var(--muted); align-self:center; white-space:nowrap; max-width:30%; overflow:hidden; text-overflow:ellipsis; }
  footer textarea { flex:1; font:inherit; padding:9px 12px; border-radius:8px; border:1px solid #d1d7db; resize:none; height:42px; max-height:160px; background:#fff; }
  button { font:inherit; font-weight:500; padding:8px 18px; border-radius:8px; border:0; cursor:pointer; }
  #send { background:var(--bar); color:#fff; height:42px; }
  #send:hover { background:var(--bar-dark); }
  #send:disabled { opacity:.5; cursor:default; }
  #reset { background:#ffffff2e; color:#fff; padding:6px 14px; align-self:center; }
  #reset:hover { background:#ffffff45; }
  .empty { margin:auto; color:var(--muted); text-align:center; background:var(--notice); padding:14px 20px; border-radius:10px; max-width:420px; font-size:14px; }
  @media (max-width:640px) {
    header { padding:8px 10px; }
    header input, header select { min-width:0; width:100%; }
    header label { flex:1 1 40%; }
    .bubble { max-width:85%; }
    #messages { padding:12px 8px; }
    footer { padding:8px; }
    footer .as { display:none; }
  }
</style>
</head>
<body>
<header>
  <div class="brand">
    <div class="avatar" aria-hidden="true"><svg width="20" height="20" viewBox="0 0 24 24" fill="#fff"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg></div>
    <div><h1>Sandbox chat</h1><div class="sub" id="dialect">messaging instance sandbox</div></div>
  </div>
  <label>Instance <select id="instance" data-testid="instance"></select></label>
  <label>From (contact number) <input id="from" data-testid="from" value="5511999990000" autocomplete="off" inputmode="tel"></label>
  <label>Contact name <input id="pushName" data-testid="pushName" value="Sandbox Contact" autocomplete="off"></label>
  <span class="spacer"></span>
  <span id="status" data-testid="status">connecting…</span>
  <button id="scan" data-testid="scan" hidden title="Scan the instance's QR code as the phone would: it turns open">Scan QR code</button>
  <button id="reset" data-testid="reset" title="Clear the chat log and the recorded requests of the sandbox">Clear</button>
</header>
<div id="hint" data-testid="hint" hidden></div>
<div id="messages" data-testid="messages" aria-live="polite"></div>
<footer>
  <span class="as" id="as"></span>
  <textarea id="message" data-testid="message" rows="1" placeholder="Type a message as the contact…" title="Enter sends, Shift+Enter adds a line"></textarea>
  <button id="send" data-testid="send">Send</button>
</footer>
<script>
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var box = $('messages');
  var source = null;
  var pending = {};
  var last = null;
  var EMPTY = 'No messages yet. Type below as the contact and press Send: the message goes to the instance\\'s webhook (e.g. an n8n trigger) and whatever the workflow sends back shows up here, live.';
  var PIN = '<svg width="34" height="34" viewBox="0 0 24 24" aria-hidden="true"><path fill="#e53935" d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7z"/><circle cx="12" cy="9" r="2.6" fill="#fff"/></svg>';

  // an inline icon, so the browser does not ask for /favicon.ico
  var icon = document.createElement('link');
  icon.rel = 'icon';
  icon.href = 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="6" fill="#008069"/><path fill="#fff" d="M6 6h12a1.5 1.5 0 0 1 1.5 1.5v7A1.5 1.5 0 0 1 18 16h-7l-4 3v-3H6a1.5 1.5 0 0 1-1.5-1.5v-7A1.5 1.5 0 0 1 6 6z"/></svg>');
  document.head.appendChild(icon);

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function time(entry) { return new Date(entry.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }); }
  function chatLabel(jid) {
    var s = String(jid || '');
    if (s === 'status@broadcast') return 'status';
    var id = s.split('@')[0];
    return /@g[.]us$/.test(s) ? 'group ' + id : id;
  }
  function str(v) { return v === undefined || v === null ? '' : String(v); }
  function short(s, n) { s = str(s).replace(/\\s+/g, ' ').trim(); return s.length > n ? s.slice(0, n - 1) + '…' : s; }
  function target(id) { return id ? box.querySelector('.bubble[data-message-id="' + String(id).replace(/["\\\\]/g, '') + '"]:not(.notice)') : null; }
  function textOf(node) { var c = node && node.querySelector('.content'); return c ? c.getAttribute('data-text') || c.textContent : ''; }
  function line(parent, cls, text) { if (str(text) !== '') parent.appendChild(el('div', cls, text)); }

  function renderList(body, b) {
    line(body, 'title', b.title);
    line(body, '', b.description);
    (b.sections || b.values || []).forEach(function (s) {
      line(body, 'section', s.title);
      (s.rows || []).forEach(function (r) {
        var row = el('div', 'row', r.title);
        if (r.description) row.appendChild(el('small', '', r.description));
        body.appendChild(row);
      });
    });
    line(body, 'footer', b.footerText);
    var choices = el('div', 'choices');
    choices.appendChild(el('div', 'choice', '☰ ' + (b.buttonText || 'Open')));
    return choices;
  }

  function renderButtons(body, b) {
    line(body, 'title', b.title);
    line(body, '', b.description);
    line(body, 'footer', b.footer);
    var choices = el('div', 'choices');
    (b.buttons || []).forEach(function (x) {
      var label = x.displayText || x.title || x.url || x.phoneNumber || x.copyCode || x.type;
      if (x.type === 'url') label = '↗ ' + label;
      if (x.type === 'call') label = '✆ ' + label;
      choices.appendChild(el('div', 'choice', label));
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
    if (caption) { var c = el('div', 'content', caption); body.appendChild(c); }
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
          content.textContent = str(b.text); content.setAttribute('data-text', str(b.text));
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
    var isNotice = ['presence', 'reaction', 'edit', 'archive', 'read', 'delete', 'unread'].indexOf(entry.kind) >= 0;
    var div = el('div', 'bubble ' + entry.direction + ' ' + entry.kind + (isNotice ? ' notice' : ''));
    div.setAttribute('data-testid', 'bubble-' + entry.direction);
    div.setAttribute('data-kind', entry.kind);
    div.setAttribute('data-seq', entry.seq);
    if (entry.messageId) div.setAttribute('data-message-id', entry.messageId);
    var sender = entry.direction + ' ' + entry.chat + ' ' + str(b.from);
    if (!isNotice && (!last || last.sender !== sender)) {
      div.className += ' first';
      if (entry.direction === 'in') {
        var who = el('div', 'who', entry.pushName || 'contact');
        var where = b.from ? chatLabel(b.from) : chatLabel(entry.chat);
        if (/@g[.]us$/.test(str(entry.chat))) where += ' in ' + chatLabel(entry.chat);
        who.appendChild(el('small', '', ' · ' + where));
        div.appendChild(who);
      } else {
        div.appendChild(el('div', 'who', entry.kind === 'status' ? 'your status' : 'to ' + chatLabel(entry.chat)));
      }
    }
    if (!isNotice) last = { sender: sender };
    var body = el('div', 'body');
    var extra = null;
    switch (entry.kind) {
      case 'list': extra = renderList(body, b); break;
      case 'buttons': extra = renderButtons(body, b); break;
      case 'location': renderLocation(body, b); break;
      case 'status': renderStatus(body, b); break;
      case 'image': case 'audio': case 'video': case 'document': case 'sticker': renderMedia(body, entry, b); break;
      case 'contact': renderContacts(body, b); break;
      case 'poll': renderPoll(body, b); break;
      case 'text': {
        var q = b.quoted;
        if (q && q.key) {
          var qt = target(q.key.id);
          var qm = q.message || {};
          var quoted = qt ? textOf(qt) : (qm.conversation || (qm.extendedTextMessage && qm.extendedTextMessage.text) || 'message ' + q.key.id);
          body.appendChild(el('div', 'quote', quoted));
        }
        var text = entry.direction === 'out' ? str(b.text !== undefined ? b.text : entry.text) : entry.text;
        var c = el('div', 'content', text); c.setAttribute('data-text', text);
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

  function add(entry) {
    var empty = $('empty'); if (empty) empty.remove();
    var stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 60;
    var node = render(entry);
    box.appendChild(node);
    if (entry.direction === 'in' && entry.messageId && pending[entry.messageId]) {
      pending[entry.messageId](node); delete pending[entry.messageId];
    }
    if (stick || entry.direction === 'in') box.scrollTop = box.scrollHeight;
  }

  function clear() {
    box.textContent = '';
    last = null;
    box.appendChild(el('div', 'empty', EMPTY)).id = 'empty';
  }

  function setStatus(text, cls) { var s = $('status'); s.textContent = text; s.className = cls || ''; }

  function connect() {
    if (source) source.close();
    clear();
    var inst = $('instance').value;
    source = new EventSource('/_sandbox/chat/stream?instance=' + encodeURIComponent(inst));
    source.addEventListener('entry', function (ev) { add(JSON.parse(ev.data)); });
    source.addEventListener('reset', clear);
    source.onopen = function () { setStatus('live', 'live'); };
    source.onerror = function () { setStatus('reconnecting…', 'down'); };
    hint();
  }

  function markDelivery(node, result) {
    var d = result && result.delivered;
    var meta = node.querySelector('.meta');
    if (!meta || !d) return;
    var mark = el('span', d.ok ? 'ok' : 'bad', d.ok ? ' ✓ delivered' : ' ✗ ' + d.reason);
    if (!d.ok) { mark.title = 'The sandbox could not deliver MESSAGES_UPSERT to the instance\\'s webhook'; meta.className = 'meta bad'; }
    meta.appendChild(mark);
  }

  function autosize() { var t = $('message'); t.style.height = '42px'; if (t.value) t.style.height = Math.min(t.scrollHeight + 2, 160) + 'px'; }

  function send() {
    var text = $('message').value;
    var from = $('from').value.trim();
    if (!text.trim()) return;
    if (!from) { $('from').focus(); return; }
    $('message').value = '';
    autosize();
    var id = '3A' + Array.from(crypto.getRandomValues(new Uint8Array(9))).map(function (x) { return ('0' + x.toString(16)).slice(-2); }).join('').toUpperCase();
    var shown = null, result = null;
    pending[id] = function (node) { shown = node; if (result) markDelivery(node, result); };
    fetch('/_sandbox/messages', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ instance: $('instance').value, from: from, text: text, pushName: $('pushName').value || undefined, id: id })
    }).then(function (r) { return r.json(); }).then(function (r) {
      if (r.error) { setStatus('send failed: ' + r.error, 'down'); return; }
      result = r; if (shown) markDelivery(shown, r);
      refresh();
    }).catch(function (e) { setStatus('send failed: ' + e.message, 'down'); });
  }

  var instances = {};
  function hint() {
    var h = $('hint');
    var name = $('instance').value;
    var i = instances[name];
    $('scan').hidden = !(i && i.connection === 'connecting');
    if (!i || (i.webhook && i.webhook.enabled && (i.webhook.events || []).indexOf('MESSAGES_UPSERT') >= 0)) { h.hidden = true; return; }
    h.hidden = false;
    h.textContent = 'Instance "' + name + '" has no webhook for MESSAGES_UPSERT yet: what you send is shown here but not delivered. Activate a workflow with the Messaging Instance Trigger (or call Set Webhook) and it will be.';
  }

  function refresh(first) {
    return fetch('/_sandbox/state').then(function (r) { return r.json(); }).then(function (state) {
      var sel = $('instance');
      instances = {};
      state.instances.forEach(function (i) {
        instances[i.name] = i;
        var label = i.name + (i.webhook && i.webhook.enabled ? '' : ' (no webhook)');
        var o = sel.querySelector('option[value="' + i.name.replace(/["\\\\]/g, '') + '"]');
        if (!o) { o = el('option'); o.value = i.name; sel.appendChild(o); }
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

  function who() { $('as').textContent = 'as ' + ($('pushName').value || 'contact') + ' · ' + $('from').value; }

  $('send').addEventListener('click', send);
  $('message').addEventListener('keydown', function (e) { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); } });
  $('message').addEventListener('input', autosize);
  $('from').addEventListener('input', who);
  $('pushName').addEventListener('input', who);
  $('instance').addEventListener('change', connect);
  $('reset').addEventListener('click', function () { fetch('/_sandbox/reset', { method: 'POST' }); });
  $('scan').addEventListener('click', function () {
    fetch('/_sandbox/scan', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ instance: $('instance').value }) })
      .then(function (r) { return r.json(); })
      .then(function (r) { setStatus(r.error ? 'scan failed: ' + r.error : $('instance').value + ' connected', r.error ? 'down' : 'live'); refresh(); });
  });
  who();
  clear();
  refresh(true).then(connect);
  setInterval(refresh, 4000);
})();
</script>
</body>
</html>
`;
