import type { FormField } from './formFields';

/**
 * The pages a person sees behind the links of the message. They are built here, not with
 * n8n's own form template (a view of n8n's server, not a public interface of nodes): plain
 * HTML with inline style, no script, every text escaped.
 */

/** The page's own policy: no script, no outside resource, forms post back to n8n only. */
export const PAGE_SECURITY_POLICY =
	"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Text the user wrote, as paragraphs: escaped, line breaks kept. */
function paragraphs(text: string): string {
	return text
		.trim()
		.split(/\n{2,}/)
		.filter((part) => part.trim() !== '')
		.map((part) => `<p>${escapeHtml(part).replace(/\n/g, '<br>')}</p>`)
		.join('\n');
}

const STYLE = `
body{margin:0;background:#f2f4f7;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2430}
main{max-width:34rem;margin:2rem auto;padding:1.75rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.3rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
label.choice{font-weight:400;margin:.25rem 0}
input[type=text],input[type=email],input[type=number],input[type=password],input[type=date],select,textarea{box-sizing:border-box;width:100%;padding:.6rem;font:inherit;border:1px solid #c9ced6;border-radius:8px}
textarea{min-height:8rem}
button{margin-top:1.25rem;padding:.7rem 1.4rem;font:inherit;font-weight:600;color:#fff;background:#2b6cb0;border:0;border-radius:8px;cursor:pointer}
button.decline{background:#6b7280}
.problem{padding:.6rem .8rem;background:#fdecea;color:#8a1c12;border-radius:8px}
.required{color:#b42318}
`;

export function page(title: string, body: string): string {
	return [
		'<!DOCTYPE html>',
		'<html lang="en">',
		'<head>',
		'<meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		'<meta name="robots" content="noindex, nofollow">',
		`<title>${escapeHtml(title)}</title>`,
		`<style>${STYLE}</style>`,
		'</head>',
		'<body>',
		'<main>',
		body,
		'</main>',
		'</body>',
		'</html>',
	].join('\n');
}

/** What an answered link shows. */
export function recordedPage(): string {
	return page('Got it, thanks', '<h1>Got it, thanks</h1>\n<p>This page can be closed now.</p>');
}

/** A link that cannot be answered (a wrong address, or an answer this node does not take). */
export function problemPage(title: string, text: string): string {
	return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`);
}

/**
 * The approval link's page: the message and one button. Opening the link answers nothing —
 * link previews and scanners open links too — the button posts the answer.
 */
export function approvalPage(message: string, label: string, approved: boolean): string {
	return page(
		label,
		[
			`<h1>${escapeHtml(label)}</h1>`,
			paragraphs(message),
			'<form method="post" enctype="multipart/form-data">',
			`<button type="submit" class="${approved ? 'approve' : 'decline'}">${escapeHtml(label)}</button>`,
			'</form>',
		].join('\n'),
	);
}

function fieldHtml(field: FormField, index: number): string {
	const name = `field-${index}`;
	const id = `f${index}`;
	const required = field.required ? ' required' : '';
	const mark = field.required ? ' <span class="required">*</span>' : '';
	const placeholder = field.placeholder ? ` placeholder="${escapeHtml(field.placeholder)}"` : '';
	const label = `<label for="${id}">${escapeHtml(field.label)}${mark}</label>`;
	switch (field.type) {
		case 'textarea':
			return `${label}\n<textarea id="${id}" name="${name}"${placeholder}${required}></textarea>`;
		case 'dropdown': {
			const options = field.choices.map((choice) => `<option value="${escapeHtml(choice)}">${escapeHtml(choice)}</option>`);
			const empty = field.multiple ? [] : ['<option value=""></option>'];
			return `${label}\n<select id="${id}" name="${name}"${field.multiple ? ' multiple' : ''}${required}>${[...empty, ...options].join('')}</select>`;
		}
		case 'checkbox':
		case 'radio': {
			const inputType = field.type === 'radio' ? 'radio' : 'checkbox';
			// A required checkbox group cannot be said in HTML; the answer is checked when it arrives.
			const each = field.choices.map(
				(choice) =>
					`<label class="choice"><input type="${inputType}" name="${name}" value="${escapeHtml(choice)}"${inputType === 'radio' ? required : ''}> ${escapeHtml(choice)}</label>`,
			);
			return `<fieldset>\n<legend>${escapeHtml(field.label)}${mark}</legend>\n${each.join('\n')}\n</fieldset>`;
		}
		default:
			return `${label}\n<input id="${id}" type="${field.type}" name="${name}"${field.type === 'number' ? ' step="any"' : ''}${placeholder}${required}>`;
	}
}

export interface FormPage {
	title: string;
	description: string;
	buttonLabel: string;
	fields: FormField[];
	/** Why the last submission was not taken, shown above the form. */
	problem?: string;
}

/** The response form (free text: one required text area; custom form: the fields set). */
export function formPage(form: FormPage): string {
	const title = form.title.trim() || 'Your answer';
	return page(
		title,
		[
			`<h1>${escapeHtml(title)}</h1>`,
			paragraphs(form.description),
			form.problem ? `<p class="problem">${escapeHtml(form.problem)}</p>` : '',
			'<form method="post" enctype="multipart/form-data">',
			...form.fields.map(fieldHtml),
			`<button type="submit">${escapeHtml(form.buttonLabel.trim() || 'Submit')}</button>`,
			'</form>',
		]
			.filter((part) => part !== '')
			.join('\n'),
	);
}
