/** Fakes of the autoscaling ports and their kit, for tests here and in other contexts. */
export * from './autoscaling-kit';
export * from './in-memory-endpoint-groups';
