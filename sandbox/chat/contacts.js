// @ts-check
// Who a chat entry belongs to: a contact's phone JID, its LID, or a group, and how each is named
// on the page. No DOM here: bubbles.js and page.js ask these when they draw and send.
// The page's scripts are served as one: chatPage.ts puts contacts.js, format.js, bubbles.js and
// page.js, in that order, into one function, so their top-level names are shared and stay off `window`.

function str(v) { return v === undefined || v === null ? '' : String(v); }
function chatLabel(jid) {
  var s = String(jid || '');
  if (s === 'status@broadcast') return 'status';
  var id = s.split('@')[0];
  return /@g[.]us$/.test(s) ? 'group ' + id : id;
}

// Contacts known by LID: a reply may go to the phone JID or to the LID, and a 2.3.6 server
// names the chat of an incoming message by its LID. Both addresses of a contact are learnt
// from what the page and the chat log say (the injected message's `from` and `lid`), so that
// each bubble belongs to one conversation: the contact's phone JID, or its LID when it has no
// phone (a LID-only contact), or the group.
/** @type {Record<string, string>} LID JID -> the contact's phone JID */
var phoneOfLid = {};
/** @type {Record<string, string>} phone JID -> the contact's LID JID */
var lidOfPhone = {};
function isLid(jid) { return /@lid$/.test(str(jid)); }
function isGroup(jid) { return /@g[.]us$/.test(str(jid)); }
function jidOf(number) { var s = str(number).trim(); return s.indexOf('@') >= 0 ? s : s.replace(/\D/g, '') + '@s.whatsapp.net'; }
function lidJidOf(value) { var s = str(value).trim(); return s.indexOf('@') >= 0 ? s : s.replace(/\D/g, '') + '@lid'; }
function learn(from, lid) {
  if (!from || !lid) return;
  var phone = jidOf(from), l = lidJidOf(lid);
  if (isLid(phone) || !isLid(l)) return;
  phoneOfLid[l] = phone; lidOfPhone[phone] = l;
}
function conversationOf(entry, b) {
  if (isGroup(entry.chat)) return str(entry.chat);
  var jid = entry.direction === 'in' && b.from ? jidOf(b.from) : str(entry.chat);
  return phoneOfLid[jid] || jid;
}
/** "5511944440001 · LID 123456789012345", or the LID alone for a contact known only by it. */
function contactLabel(jid) {
  var s = str(jid);
  if (isLid(s)) return 'LID ' + s.split('@')[0];
  var lid = lidOfPhone[s];
  return chatLabel(s) + (lid ? ' · LID ' + lid.split('@')[0] : '');
}
/** The address a reply went to, with the contact's other address when it is known. */
function addressLabel(jid) {
  var s = str(jid);
  if (isLid(s) && phoneOfLid[s]) return 'LID ' + s.split('@')[0] + ' (' + chatLabel(phoneOfLid[s]) + ')';
  return isLid(s) ? 'LID ' + s.split('@')[0] : chatLabel(s);
}
