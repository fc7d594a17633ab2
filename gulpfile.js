// Copies what n8n reads beside the compiled code in dist/: each node's and credential's icons
// (`icon: 'file:…'`) and each node's codex, `<Name>.node.json` next to `<Name>.node.js` (n8n's
// directory loader requires `${nodeFile}on` for a node's categories, aliases and Docs link).
// Globs, not a list, so a node added under nodes/ ships its codex without a change here.
const { src, dest } = require('gulp');

function copyNodeFiles() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports['build:node-files'] = copyNodeFiles;
