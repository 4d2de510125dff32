/** Teams and their members: a team API key is made for a member only. */
export abstract class TeamRepository {
  abstract upsert(team: { id: number; name: string }): Promise<void>;
  abstract create(name: string): Promise<number>;
  abstract addMember(teamId: number, userId: number): Promise<void>;
  /** Makes the team's default roles if it has none, and gives the member its owner role. */
  abstract giveOwnerRole(teamId: number, userId: number): Promise<void>;
  abstract isMember(teamId: number, userId: number): Promise<boolean>;
}
