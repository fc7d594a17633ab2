/**
 * Every endpoint the sandbox serves, one entry each (see RouteDef in ../types.ts). A new
 * endpoint is one entry in the file of its group; the dispatcher needs nothing else.
 */
import type { RouteDef } from '../types';
import { messageRoutes } from './message';
import { chatRoutes } from './chat';
import { settingsRoutes } from './settings';
import { instanceRoutes } from './instance';
import { mediaRoutes } from './media';
import { lifecycleRoutes } from './lifecycle';
import { groupRoutes } from './group';
import { labelRoutes } from './label';
import { historyRoutes } from './history';
import { v24Routes } from './v24';
import { chatbotRoutes } from './chatbot';
import { eventRoutes } from './events';
import { profileRoutes } from './profile';
import { integrationRoutes } from './integrations';

export const ROUTES: readonly RouteDef[] = [
	...messageRoutes,
	...mediaRoutes,
	...chatRoutes,
	...settingsRoutes,
	...instanceRoutes,
	...lifecycleRoutes,
	...groupRoutes,
	...labelRoutes,
	...historyRoutes,
	...v24Routes,
	...chatbotRoutes,
	...eventRoutes,
	...profileRoutes,
	...integrationRoutes,
];
