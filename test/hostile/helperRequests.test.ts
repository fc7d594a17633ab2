import { OPERATIONS } from '../../nodes/MessagingInstance/actions/index';
import { describeHelperTiers } from './helperTiers';

/**
 * Every helper request of every operation of the registry (the read before a write, the
 * look-up before a resend, the account check, the instance's integration and webhook, a
 * chat's history) answered with every hostile shape: see helperTiers.ts.
 */
describeHelperTiers(OPERATIONS);
