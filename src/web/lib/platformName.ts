import { OTHER_PLATFORM, platformDisplayName } from '../../core/platforms';
import type { TFunction } from '../i18n';

/**
 * A platform's name on screen: the brand's own spelling, or "Digər" / "Diğer" / "Other" for the
 * services without a platform (docs/rules.md#catalogue). Pages that show it load `common`.
 */
export function platformName(t: TFunction, platform: string): string {
  return platform === OTHER_PLATFORM ? t('common:platformOther') : platformDisplayName(platform);
}
