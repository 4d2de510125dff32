import { chargeOwnerKey, contractOwnerKey } from './contract';
import { testContract } from '../testing/billing-builders';

describe('owner keys', () => {
  it("keys a team apart from its members' own: the user's id, or minus the team's", () => {
    expect(chargeOwnerKey({ userId: 7, teamId: null })).toBe(7);
    expect(chargeOwnerKey({ userId: 7, teamId: 3 })).toBe(-3);
  });

  it("a contract's owner is its team when it has one, else its user", () => {
    expect(contractOwnerKey(testContract(1, { userId: 7 }))).toBe(7);
    expect(contractOwnerKey(testContract(2, { userId: 7, teamId: 3 }))).toBe(-3);
  });
});
