// Copies each node's and credential's icons next to the compiled code in dist/, where n8n
// resolves `icon: 'file:…'`.
const { src, dest } = require('gulp');

function copyIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports['build:icons'] = copyIcons;
