/** jest's global setup: n8n's AI node SDK for the chat memory's tests, installed once into `.ai-sdk/` (scripts/aiSdk.ts says why it is not a devDependency). */
import { ensureAiSdk } from '../../scripts/aiSdk';

export default function setup(): void {
	ensureAiSdk();
}
