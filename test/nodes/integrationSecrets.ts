/** Secrets the integration tests set (a proxy's password, a Chatwoot token), declared to the harness by each of their files. */
export const PROXY_PASSWORD = 'proxy-pass-7c1e9b55';
export const CHATWOOT_TOKEN = 'cw-token-4f0a2d8e61';
