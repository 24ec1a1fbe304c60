/**
 * The push area's public face: the file of stored Web Push subscriptions (the migration
 * imports the predecessor's into it). Other areas import only this file.
 */
export {
  PUSH_SUBSCRIPTIONS_FILE,
  openSubscriptionFile,
  subscriptionSchema,
  type PushSubscriptionRecord,
  type SubscriptionFile,
} from './subscriptions.ts';
