import { instanceRoute } from './simple';

export const logoutInstance = instanceRoute({
	value: 'logout',
	name: 'Log Out',
	action: 'Log out an instance',
	description: 'Disconnect the account from the instance; connecting again needs a new QR code',
	method: 'DELETE',
	path: '/instance/logout',
});
