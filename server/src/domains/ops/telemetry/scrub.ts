/**
 * Client error messages before they reach the log: the browser scrubs them already, the server
 * does it again with the same kernel rule (a report may come from anywhere). No personal data in the logs.
 */
export { scrubClientMessage as scrubMessage } from '@shop/shared-kernel/rules';
