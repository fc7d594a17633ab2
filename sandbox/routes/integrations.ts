/**
 * The integrations of an instance on 2.3.7 / 2.4: its proxy, WhatsApp Business catalogs, Meta
 * message templates (Cloud API instances), the S3 media store and Chatwoot
 * (`proxy.router.ts`, `business.router.ts`, `template.router.ts`, `sendTemplate` of
 * `sendMessage.router.ts`, `integrations/storage/s3`, `integrations/chatbot/chatwoot`, with
 * their schemas, controllers and services). One entry each, like the other files of this folder.
 */
import type { RouteDef } from '../types';
import { businessRoutes } from './business';
import { chatwootRoutes } from './chatwoot';
import { proxyRoutes } from './proxy';
import { storageRoutes } from './storage';
import { templateRoutes } from './templates';

export const integrationRoutes: RouteDef[] = [...proxyRoutes, ...businessRoutes, ...templateRoutes, ...storageRoutes, ...chatwootRoutes];
