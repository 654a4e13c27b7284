import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PublicService } from '../../../core/contracts/catalog';
import { I18n, I18nProvider } from '../../i18n';
import az from '../../i18n/locales/az/catalog.json';
import en from '../../i18n/locales/en/catalog.json';
import tr from '../../i18n/locales/tr/catalog.json';
import { ServiceInfo } from './ServiceInfo';

const base: PublicService = {
  id: '1204',
  platform: 'instagram',
  name: 'Instagram Followers [HQ, 30d refill]',
  type: 'Followers',
  group: 'followers',
  min: 10,
  max: 5000,
  step: 10,
  tiers: [{ minimum: 10, maximum: 5000, price: '2.00', pricingPer: 1000 }],
  displayPrice: '2.20',
  displayPer: 1000,
  hasParams: false,
};
const fees = { serviceFeePercent: 0, baseFee: 0 };
const detail = { data: undefined, isPending: true, isError: false };

function render(service: PublicService, lang: 'az' | 'tr' | 'en' = 'en') {
  const i18n = new I18n(lang, { [lang]: { catalog: { az, tr, en }[lang] } });
  const html = renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <ServiceInfo service={service} detail={detail} fees={fees} locale={lang} />
    </I18nProvider>,
  );
  const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  return { html, text };
}

describe('the chosen service’s refill and cancel', () => {
  it('are said in words, with their period, beside a mark that is not the only sign', () => {
    const { html, text } = render({ ...base, refill: true, refillDays: 30, cancel: true });
    expect(text).toContain('Refill: 30 days');
    expect(text).toContain('Cancel: while the order runs');
    expect(html).toContain('data-ability="refill" data-available="true"');
    expect(html).toContain('data-ability="cancel" data-available="true"');
    expect(html).toContain('aria-hidden="true"');
  });

  it('say so when the service has neither, or a refill for life or without a period', () => {
    expect(render({ ...base, refill: false, refillDays: null, cancel: false }).text).toMatch(/Refill: not available .*Cancel: not available/);
    expect(render({ ...base }).text).toMatch(/Refill: not available .*Cancel: not available/);
    expect(render({ ...base, refill: true, refillDays: 3650 }).text).toContain('Refill: lifetime');
    expect(render({ ...base, refill: true, refillDays: null }).text).toContain('Refill: available');
  });

  it('are worded in Azerbaijani and Turkish', () => {
    const inAz = render({ ...base, refill: true, refillDays: 60, cancel: false }, 'az').text;
    expect(inAz).toContain('Bərpa (refill): 60 gün');
    expect(inAz).toContain('Ləğv: mümkün deyil');
    const inTr = render({ ...base, refill: false, cancel: true }, 'tr').text;
    expect(inTr).toContain('Telafi (refill): yok');
    expect(inTr).toContain('İptal: sipariş sürerken');
  });
});

describe('how the chosen service usually runs', () => {
  it('tells its usual start, average time and completion rate in each language', () => {
    const figures = { startMinutes: 25, completeMinutes: 125, completionRate: 96 };
    expect(render({ ...base, figures }).text).toMatch(/Usual start: 25 min .*Average time: 2 h 5 min .*Completion rate: 96%/);
    expect(render({ ...base, figures: { ...figures, completeMinutes: 3 * 1440 + 4 * 60 + 10 } }, 'tr').text).toMatch(/Ortalama süre: 3 gün 4 sa .*Tamamlanma oranı: %96/);
    expect(render({ ...base, figures }, 'az').text).toMatch(/Adətən başlama: 25 dəq .*Orta vaxt: 2 saat 5 dəq/);
  });

  it('says "not enough orders yet" for what too few orders tell', () => {
    const { text, html } = render({ ...base, figures: { startMinutes: null, completeMinutes: 40, completionRate: 90 } });
    expect(text).toMatch(/Usual start: not enough orders yet .*Average time: 40 min/);
    expect(html).toContain('data-figures="known"');
    const none = render({ ...base });
    expect(none.html).toContain('data-figures="none"');
    expect(none.text).toMatch(/Usual start: not enough orders yet .*Average time: not enough orders yet .*Completion rate: not enough orders yet/);
    expect(render({ ...base }, 'az').text).toContain('hələ kifayət qədər sifariş yoxdur');
  });
});

describe('a service without a description of its own', () => {
  const loaded = (service: PublicService, description: string | null, lang: 'az' | 'tr' | 'en') => {
    const i18n = new I18n(lang, { [lang]: { catalog: { az, tr, en }[lang] } });
    const data = { ...service, description, example: null, params: [] };
    const html = renderToStaticMarkup(
      <I18nProvider i18n={i18n}>
        <ServiceInfo service={service} detail={{ data, isPending: false, isError: false }} fees={fees} locale={lang} />
      </I18nProvider>,
    );
    return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  };

  it('reads one made from its facts in the page’s language: what it delivers, the bounds, the usual times, the refill', () => {
    const followers = { ...base, name: 'Instagram izləyiciləri [Yüksək keyfiyyət, 30 gün bərpa]', min: 50, max: 10000, refill: true, refillDays: 30 };
    const inAz = loaded(followers, null, 'az');
    expect(inAz).toContain('Instagram izləyiciləri — göstərdiyiniz linkə çatdırılır.');
    expect(inAz).toContain('Sifariş miqdarı: minimum 50, maksimum 10.000.');
    expect(inAz).toContain('Tamamlandıqdan sonra 30 gün ərzində say azalarsa, bərpa istəyə bilərsiniz.');
    expect(inAz).not.toMatch(/ərzində başlayır|ərzində tamamlanır/);
    const timed = { ...base, name: 'Web sitesi trafiği', refill: false, figures: { startMinutes: 25, completeMinutes: 190, completionRate: 96 } };
    const inTr = loaded(timed, null, 'tr');
    expect(inTr).toContain('Web sitesi trafiği — girdiğiniz bağlantıya gönderilir.');
    expect(inTr).toContain('Genellikle 25 dk içinde başlar.');
    expect(inTr).toContain('Genellikle 3 sa 10 dk içinde tamamlanır.');
    expect(inTr).toContain('Telafi yok');
    const inEn = loaded({ ...base, refill: true, refillDays: 3650 }, null, 'en');
    expect(inEn).toContain('Instagram Followers, delivered to the link you enter.');
    expect(inEn).toContain('you can ask for a refill at any time after completion');
    expect(inEn).not.toContain('No description');
  });

  it('keeps the provider’s own description where there is one: below one in the page’s language on az and tr, alone on en', () => {
    const text = loaded(base, 'Real followers, 1K a day.', 'az');
    expect(text).toContain('Real followers, 1K a day.');
    expect(text).toContain('göstərdiyiniz linkə');
    expect(text.indexOf('göstərdiyiniz linkə')).toBeLessThan(text.indexOf('Provayderin təsviri'));
    expect(loaded(base, 'Real followers, 1K a day.', 'tr')).toContain('Sağlayıcının açıklaması');
    const en = loaded(base, 'Real followers, 1K a day.', 'en');
    expect(en).toContain('Real followers, 1K a day.');
    expect(en).not.toContain('delivered to the link you enter');
  });
});
