import { CommandContext } from '../context';

export async function unlistVolume(context: CommandContext, id: number): Promise<void> {
  const response = await context.api().post('/api/v0/volumes/unlist', { body: { id } });
  context.output(response, () => response.msg ?? `Unlisted Volume ${id}.`);
}
