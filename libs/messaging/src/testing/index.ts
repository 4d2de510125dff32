/** The test kit of messaging, for the specs of the contexts that send messages. */
export { RecordingMessageSender } from './recording-message-sender';
export { deliveryFailureOf } from './delivery-failure-of';
export { testMessage } from './test-message';
