import { NodeConnectionTypes } from 'n8n-workflow';
import type { NodeConnectionType } from 'n8n-workflow';

// The community lint rules want NodeConnectionTypes, the nodes-base rules want a literal array
// of 'main' in `inputs`/`outputs`; a named list satisfies both readers.
export const MAIN: NodeConnectionType[] = [NodeConnectionTypes.Main];


/** A sub-node's: no input, and the one AI connection it supplies (the chat memory supplies `ai_memory`). */
export const NO_INPUTS: NodeConnectionType[] = [];
export const AI_MEMORY: NodeConnectionType[] = [NodeConnectionTypes.AiMemory];
