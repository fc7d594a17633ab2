// @ts-check
// WhatsApp's text formatting, drawn as the phone draws it: *bold*, _italic_, ~strikethrough~,
// ```monospace``` (a block, over lines too) and `inline code`, nested as WhatsApp nests them
// (*_bold italic_*), with http(s) addresses as links that open in a new tab. Everything is built
// as DOM nodes from text (createElement, createTextNode): a message's text never becomes HTML,
// so "<b>" or "<img onerror=…>" in it shows as typed.
//
// The phone's rule for a marker: it opens at the start of a word (not after a letter or digit,
// not before a space) and closes on the same line at the end of one (not after a space, not
// before a letter or digit); "2*3*4", "snake_case_name" and "* not bold *" stay as typed, and
// so does a run of one marker ("__init__", "**").
// Monospace and inline code show their content as typed, markers and all. A marker inside a
// link is part of the link.

/** The inline markers and the element each draws. */
var MARKERS = { '*': 'strong', '_': 'em', '~': 's' };

// Links in a message open in a new tab (n8n's waiting pages: approve, answer a form). A link
// does not end in punctuation or in a formatting marker ("*see https://x.example*").
var LINK = /https?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]*_~]/g;

function isWordChar(c) { return c !== undefined && /[\p{L}\p{N}]/u.test(c); }
function isSpace(c) { return c === undefined || /\s/.test(c); }

/**
 * What the formatter asks of a text, worked out once so that a long text (a hostile one too)
 * takes time in proportion to its length: its links, which characters are in one, where each
 * line ends, and where a marker may close (in order).
 */
function study(s) {
  var links = [], m;
  var inLink = new Uint8Array(s.length);
  LINK.lastIndex = 0;
  while ((m = LINK.exec(s)) !== null) {
    links.push([m.index, m.index + m[0].length]);
    inLink.fill(1, m.index, m.index + m[0].length);
  }
  var lineEnd = new Int32Array(s.length + 1);
  lineEnd[s.length] = s.length;
  for (var i = s.length - 1; i >= 0; i--) lineEnd[i] = s.charAt(i) === '\n' ? i : lineEnd[i + 1];
  var closers = { '*': [], '_': [], '~': [] };
  for (var j = 1; j < s.length; j++) {
    var c = s.charAt(j);
    var next = s.charAt(j + 1) || undefined;
    if (closers[c] && !inLink[j] && !isSpace(s.charAt(j - 1)) && s.charAt(j - 1) !== c && !isWordChar(next) && next !== c) closers[c].push(j);
  }
  return { links: links, next: 0, inLink: inLink, lineEnd: lineEnd, closers: closers };
}

/** The first of the sorted `positions` at or after `at`, or -1. */
function firstFrom(positions, at) {
  var lo = 0, hi = positions.length;
  while (lo < hi) { var mid = (lo + hi) >> 1; if (positions[mid] < at) lo = mid + 1; else hi = mid; }
  return lo < positions.length ? positions[lo] : -1;
}

/**
 * The formatted span that opens at `i` of `s` and closes before `to`, or null: its element,
 * whether its content is shown as typed, the content's range and where the span ends.
 */
function spanAt(s, i, to, known) {
  if (known.inLink[i]) return null;
  if (s.startsWith('```', i)) {
    var close = s.indexOf('```', i + 3);
    return close > i + 3 && close + 3 <= to ? { tag: 'code', cls: 'mono', verbatim: true, from: i + 3, to: close, end: close + 3 } : null;
  }
  var c = s.charAt(i);
  var lineEnd = Math.min(known.lineEnd[i], to);
  if (c === '`') {
    var tick = s.indexOf('`', i + 1);
    return tick > i + 1 && tick < lineEnd ? { tag: 'code', cls: 'inline-code', verbatim: true, from: i + 1, to: tick, end: tick + 1 } : null;
  }
  if (!Object.prototype.hasOwnProperty.call(MARKERS, c)) return null;
  var before = s.charAt(i - 1) || undefined;
  if (isWordChar(before) || before === c || isSpace(s.charAt(i + 1) || undefined) || s.charAt(i + 1) === c) return null;
  var j = firstFrom(known.closers[c], i + 2);
  return j >= 0 && j < lineEnd ? { tag: MARKERS[c], cls: '', verbatim: false, from: i + 1, to: j, end: j + 1 } : null;
}

/**
 * Appends s[from, to) to `parent` as text, its links as links. Spans are appended in the order
 * of the text, so the links are taken in order too (`known.next`); a link lies wholly inside a
 * piece or outside it, and one inside code (shown as typed) is passed over.
 */
function appendText(parent, s, from, to, known) {
  var at = from;
  while (known.next < known.links.length && known.links[known.next][1] <= to) {
    var r = known.links[known.next++];
    if (r[0] < from) continue;
    if (r[0] > at) parent.appendChild(document.createTextNode(s.slice(at, r[0])));
    var url = s.slice(r[0], r[1]);
    var a = /** @type {HTMLAnchorElement} */ (document.createElement('a'));
    a.className = 'link'; a.textContent = url; a.href = url; a.target = '_blank'; a.rel = 'noopener noreferrer';
    a.setAttribute('data-testid', 'link');
    parent.appendChild(a);
    at = r[1];
  }
  if (at < to) parent.appendChild(document.createTextNode(s.slice(at, to)));
}

function appendFormatted(parent, s, from, to, known) {
  var plain = from;
  for (var i = from; i < to; i++) {
    var span = spanAt(s, i, to, known);
    if (!span) continue;
    appendText(parent, s, plain, i, known);
    var node = document.createElement(span.tag);
    if (span.cls) node.className = span.cls;
    if (span.verbatim) node.textContent = s.slice(span.from, span.to);
    else appendFormatted(node, s, span.from, span.to, known);
    parent.appendChild(node);
    i = span.end - 1;
    plain = span.end;
  }
  appendText(parent, s, plain, to, known);
}

/** Fills `node` with `text` formatted as WhatsApp shows it; returns `node`. */
function formatted(node, text) {
  var s = str(text);
  node.textContent = '';
  appendFormatted(node, s, 0, s.length, study(s));
  return node;
}
