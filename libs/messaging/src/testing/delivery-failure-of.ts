import { rejection } from '@app/platform/testing';
import { DeliveryFailure } from '../domain/delivery-failure';

/** The DeliveryFailure a send rejects with (fails the test on any other outcome). */
export async function deliveryFailureOf(work: Promise<unknown>): Promise<DeliveryFailure> {
  const error = await rejection(work);
  if (error instanceof DeliveryFailure) return error;
  throw new Error(`expected a DeliveryFailure, got ${error.code}`);
}
