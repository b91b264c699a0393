import { afterEach, describe, expect, it, vi } from 'vitest';
import { usageHarness, type UsageHarness } from '../../../fixtures/usage/service.js';
import { ZoneSetting } from '../../../../main/services/usage/zone-setting.js';
import { systemTimeZone } from '../../../../main/services/usage/zone-calendar.js';

let h: UsageHarness;
afterEach(() => h?.cleanup());

describe('ZoneSetting', () => {
  it('reads usage.timezone once for many concurrent requests, then again after a few seconds', async () => {
    h = await usageHarness({ config: 'usage:\n  timezone: Europe/Paris\n' });
    const zones = new ZoneSetting(h.ctx);
    const read = vi.spyOn(h.ctx.appConfig, 'read');
    expect(new Set(await Promise.all(Array.from({ length: 50 }, () => zones.current())))).toEqual(new Set(['Europe/Paris']));
    expect(read).toHaveBeenCalledTimes(1);
    await zones.current();
    expect(read).toHaveBeenCalledTimes(1);
    h.clock.advance(5_000);
    await zones.current();
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads again at once after a change to the usage section', async () => {
    h = await usageHarness({ config: 'usage:\n  timezone: Europe/Paris\n' });
    const zones = new ZoneSetting(h.ctx);
    const stop = zones.watch();
    expect(await zones.current()).toBe('Europe/Paris');
    await h.ctx.appConfig.update((doc) => doc.setIn(['usage', 'timezone'], 'Asia/Tokyo'));
    h.ctx.events.emit('config-changed', { section: 'usage' });
    expect(await zones.current()).toBe('Asia/Tokyo');
    stop();
  });

  it.each([
    ['an unknown zone', 'usage:\n  timezone: Mars/Olympus\n'],
    ['no setting', ''],
    ['an unreadable config.yaml', 'usage: [unclosed\n'],
  ])('falls back to the system zone for %s', async (_name, config) => {
    h = await usageHarness({ config });
    expect(await new ZoneSetting(h.ctx).current()).toBe(systemTimeZone());
  });
});
