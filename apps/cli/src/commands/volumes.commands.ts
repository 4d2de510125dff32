import { numberOption } from '../options/validation';
import { CommandKit, examples } from './command-kit';
import { unlistVolume } from './volumes.handlers';

export function registerVolumeCommands(kit: CommandKit): void {
  kit
    .verb('unlist', 'Take an offer off the marketplace')
    .command('volume')
    .description('Unlist one of your volume offers; unlisting an unlisted volume succeeds again')
    .argument('<id>', 'volume id (a positive integer)', numberOption({ integer: true, min: 1 }))
    .addHelpText('after', examples('gpumkt unlist volume 5012'))
    .action(kit.action(unlistVolume));
}
