// n8n finds the nodes and credentials through the "n8n" section of package.json;
// this entry point exists only so that `require('n8n-nodes-messaging-instance')` works.
module.exports = {};
