/** Fakes of the volumes ports and their kit, for tests here and in other contexts. */
export * from './in-memory-volume-listings';
export * from './volumes-kit';
