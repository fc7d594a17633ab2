import { returnAllProperties, wholeList } from '../fields';
import { strictList } from '../pages';
import { groupRoute } from './route';

export const getParticipants = groupRoute({
	value: 'getParticipants',
	name: 'Get Participants',
	action: 'Get the participants of a group',
	description: 'List a group\'s participants and their admin roles; one item per participant',
	method: 'GET',
	path: '/group/participants',
	properties: returnAllProperties(),
	pagination: wholeList((response) => {
		const participants = (response as { participants?: unknown } | null)?.participants;
		return strictList(participants, ' of participants');
	}),
});
