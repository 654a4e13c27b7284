/**
 * The storefront's own wording of the words provider service names are made of, in Azerbaijani
 * and Turkish (docs/rules.md#catalogue). `src/core/serviceNames.ts` applies it to every name after
 * the admin's rules, which take precedence over it: "Instagram Followers [Mixed Quality, Lifetime
 * refill]" reads "Instagram izləyiciləri [Qarışıq keyfiyyət, Ömürlük bərpa]" in az and
 * "Instagram takipçi [Karışık kalite, Ömür boyu telafi]" in tr. English names are left as the
 * provider wrote them.
 */

/**
 * What a term is in a name, which decides its form in az:
 * - `head`: what is delivered ("followers"); after another noun it takes the possessive
 *   ("Instagram izləyiciləri"), first or after adjectives only it does not ("Real izləyicilər");
 * - `adj`: describes the next word ("real", "turkish"); a head after it still reads as first;
 * - `noun`: anything else (a noun used before another: "page", "story"; a country, a unit).
 */
export type TermKind = 'head' | 'adj' | 'noun';

/** A wording, or its two forms: [first or after adjectives, after another noun]. */
export type TermText = string | readonly [alone: string, afterNoun: string];

export interface GlossaryTerm {
  /**
   * The English words, matched like an admin's keyword (any letter case, on word boundaries,
   * any run of spaces for a space); `{n}` and `{m}` stand for numbers ("30", "1.5K"), which the
   * wording repeats where it names them.
   */
  en: string;
  kind: TermKind;
  az: TermText;
  tr: TermText;
  /** Matched in this letter case only (acronyms that are also words: "US"). */
  exact?: boolean;
}

/** The languages the glossary words names in. */
export const GLOSSARY_LANGUAGES = ['az', 'tr'] as const;

const head = (en: string, az: TermText, tr: TermText): GlossaryTerm => ({ en, kind: 'head', az, tr });
const adj = (en: string, az: string, tr: string): GlossaryTerm => ({ en, kind: 'adj', az, tr });
const noun = (en: string, az: TermText, tr: TermText, exact = false): GlossaryTerm => ({ en, kind: 'noun', az, tr, ...(exact ? { exact } : {}) });

/** What is delivered. */
const DELIVERED: GlossaryTerm[] = [
  head('followers', ['izləyicilər', 'izləyiciləri'], 'takipçi'),
  head('follower', ['izləyici', 'izləyicisi'], 'takipçi'),
  head('likes', ['bəyənmələr', 'bəyənmələri'], 'beğeni'),
  head('views', ['baxışlar', 'baxışları'], 'izlenme'),
  head('views from search', 'axtarışdan gələn baxışlar', 'aramadan gelen izlenme'),
  head('comments', ['şərhlər', 'şərhləri'], 'yorum'),
  head('replies', ['cavablar', 'cavabları'], 'yanıt'),
  head('shares', ['paylaşımlar', 'paylaşımları'], 'paylaşım'),
  head('reposts', ['repostlar', 'repostları'], 'yeniden paylaşım'),
  head('retweets', ['retvitlər', 'retvitləri'], 'retweet'),
  head('saves', ['yadda saxlamalar', 'yadda saxlamaları'], 'kaydetme'),
  head('favorites', ['seçilmişlər', 'seçilmişləri'], 'favori'),
  head('favourites', ['seçilmişlər', 'seçilmişləri'], 'favori'),
  head('subscribers', ['abunəçilər', 'abunəçiləri'], 'abone'),
  head('members', ['üzvlər', 'üzvləri'], 'üye'),
  head('plays', ['dinləmələr', 'dinləmələri'], 'dinlenme'),
  head('listeners', ['dinləyicilər', 'dinləyiciləri'], 'dinleyici'),
  head('reviews', ['rəylər', 'rəyləri'], ['değerlendirme', 'değerlendirmesi']),
  head('reactions', ['reaksiyalar', 'reaksiyaları'], 'tepki'),
  head('mentions', ['qeydlər', 'qeydləri'], 'bahsetme'),
  head('connections', ['bağlantılar', 'bağlantıları'], 'bağlantı'),
  head('votes', ['səslər', 'səsləri'], 'oy'),
  head('poll votes', 'sorğu səsləri', 'anket oyu'),
  head('impressions', ['göstərimlər', 'göstərimləri'], 'gösterim'),
  head('visits', ['ziyarətlər', 'ziyarətləri'], 'ziyaret'),
  head('clicks', ['kliklər', 'klikləri'], 'tıklama'),
  head('downloads', ['yükləmələr', 'yükləmələri'], 'indirme'),
  head('traffic', ['trafik', 'trafiki'], ['trafik', 'trafiği']),
  head('watch time', 'izləmə vaxtı', 'izlenme süresi'),
  head('watch time (hours)', 'izləmə vaxtı (saat)', 'izlenme süresi (saat)'),
  head('engagement', ['qarşılıqlı əlaqə', 'qarşılıqlı əlaqəsi'], 'etkileşim'),
  head('users', ['istifadəçilər', 'istifadəçiləri'], 'kullanıcılar'),
  head('accounts', ['hesablar', 'hesabları'], 'hesaplar'),
];

/** Where it goes: the part of an account or a post. */
const PLACES: GlossaryTerm[] = [
  noun('page', 'səhifə', 'sayfa'),
  noun('post', 'post', 'gönderi'),
  noun('story', 'hekayə', 'hikaye'),
  noun('stories', 'hekayə', 'hikaye'),
  noun('comment', 'şərh', 'yorum'),
  noun('channel', 'kanal', 'kanal'),
  noun('group', 'qrup', 'grup'),
  noun('company', 'şirkət', 'şirket'),
  noun('profile', 'profil', 'profil'),
  noun('video', 'video', 'video'),
  noun('poll', 'sorğu', 'anket'),
  noun('website', 'veb-sayt', 'web sitesi'),
  noun('live stream', 'canlı yayım', 'canlı yayın'),
  noun('search', 'axtarış', 'arama'),
  noun('list', 'siyahı', 'liste'),
  noun('custom list', 'fərdi siyahı', 'özel liste'),
];

/** How they are: quality, kind, audience. */
const QUALITIES: GlossaryTerm[] = [
  adj('real', 'real', 'gerçek'),
  adj('active', 'aktiv', 'aktif'),
  adj('organic', 'orqanik', 'organik'),
  adj('natural', 'təbii', 'doğal'),
  adj('premium', 'premium', 'premium'),
  adj('elite', 'elit', 'elit'),
  adj('mixed', 'qarışıq', 'karışık'),
  noun('quality', 'keyfiyyət', 'kalite'),
  noun('mixed quality', 'qarışıq keyfiyyət', 'karışık kalite'),
  noun('high quality', 'yüksək keyfiyyət', 'yüksek kalite'),
  noun('HQ', 'yüksək keyfiyyət', 'yüksek kalite'),
  noun('medium quality', 'orta keyfiyyət', 'orta kalite'),
  noun('low quality', 'aşağı keyfiyyət', 'düşük kalite'),
  noun('LQ', 'aşağı keyfiyyət', 'düşük kalite', true),
  noun('bot', 'bot', 'bot'),
  noun('bots', 'botlar', 'botlar'),
  adj('old', 'köhnə', 'eski'),
  adj('new', 'yeni', 'yeni'),
  adj('custom', 'fərdi', 'özel'),
  adj('random', 'təsadüfi', 'rastgele'),
  adj('positive', 'müsbət', 'olumlu'),
  adj('negative', 'mənfi', 'olumsuz'),
  adj('social', 'sosial', 'sosyal'),
  adj('live', 'canlı', 'canlı'),
  adj('monthly', 'aylıq', 'aylık'),
  adj('daily', 'gündəlik', 'günlük'),
  adj('female', 'qadın', 'kadın'),
  adj('male', 'kişi', 'erkek'),
  adj('women', 'qadın', 'kadın'),
  adj('men', 'kişi', 'erkek'),
  adj('targeted', 'hədəfli', 'hedefli'),
  noun('targeted country', 'ölkə hədəfli', 'ülke hedefli'),
  noun('country targeted', 'ölkə hədəfli', 'ülke hedefli'),
  noun('country', 'ölkə', 'ülke'),
  adj('geo targeted', 'coğrafi hədəfli', 'coğrafi hedefli'),
  adj('geo-targeted', 'coğrafi hədəfli', 'coğrafi hedefli'),
  adj('worldwide', 'bütün dünyadan', 'dünya geneli'),
  adj('global', 'qlobal', 'global'),
  adj('international', 'beynəlxalq', 'uluslararası'),
  adj('cheap', 'ucuz', 'ucuz'),
  adj('cheapest', 'ən ucuz', 'en ucuz'),
  noun('best seller', 'ən çox satılan', 'en çok satan'),
  noun('best sellers', 'ən çox satılanlar', 'en çok satanlar'),
  adj('recommended', 'tövsiyə olunan', 'önerilen'),
  adj('exclusive', 'eksklüziv', 'ayrıcalıklı'),
  adj('stable', 'sabit', 'stabil'),
  adj('guaranteed', 'zəmanətli', 'garantili'),
  noun('no guarantee', 'zəmanətsiz', 'garantisiz'),
  noun('guarantee', 'zəmanət', 'garanti'),
  noun('non drop', 'düşməyən', 'düşmeyen'),
  noun('non-drop', 'düşməyən', 'düşmeyen'),
  noun('no drop', 'düşməyən', 'düşmeyen'),
  noun('zero drop', 'düşməyən', 'düşmeyen'),
  noun('low drop', 'az düşən', 'az düşen'),
];

/** Refill, speed and start. */
const TERMS_OF_DELIVERY: GlossaryTerm[] = [
  noun('refill', 'bərpa', 'telafi'),
  noun('no refill', 'bərpasız', 'telafisiz'),
  noun('with refill', 'bərpalı', 'telafili'),
  noun('auto refill', 'avtomatik bərpa', 'otomatik telafi'),
  noun('refill button', 'bərpa düyməsi', 'telafi butonu'),
  adj('lifetime', 'ömürlük', 'ömür boyu'),
  noun('{n}d refill', '{n} gün bərpa', '{n} gün telafi'),
  noun('{n}-day refill', '{n} gün bərpa', '{n} gün telafi'),
  noun('R{n}', '{n} gün bərpa', '{n} gün telafi', true),
  noun('{n}d', '{n} gün', '{n} gün'),
  noun('{n} days', '{n} gün', '{n} gün'),
  noun('{n} day', '{n} gün', '{n} gün'),
  noun('{n} months', '{n} ay', '{n} ay'),
  noun('{n} month', '{n} ay', '{n} ay'),
  noun('{n} year', '{n} il', '{n} yıl'),
  noun('{n}-{m} hours', '{n}-{m} saat', '{n}-{m} saat'),
  noun('{n}-{m} hour', '{n}-{m} saat', '{n}-{m} saat'),
  noun('{n}-{m}h', '{n}-{m} saat', '{n}-{m} saat'),
  noun('{n} hours', '{n} saat', '{n} saat'),
  noun('{n} hour', '{n} saat', '{n} saat'),
  noun('{n}h', '{n} saat', '{n} saat'),
  noun('{n}-{m} minutes', '{n}-{m} dəqiqə', '{n}-{m} dakika'),
  noun('{n} minutes', '{n} dəqiqə', '{n} dakika'),
  noun('{n} min', '{n} dəq', '{n} dk'),
  noun('{n}/day', 'gündə {n}', 'günde {n}'),
  noun('{n}/d', 'gündə {n}', 'günde {n}'),
  noun('{n} per day', 'gündə {n}', 'günde {n}'),
  noun('{n}/hour', 'saatda {n}', 'saatte {n}'),
  noun('{n}/h', 'saatda {n}', 'saatte {n}'),
  noun('per day', 'gündəlik', 'günlük'),
  noun('days', 'gün', 'gün'),
  noun('day', 'gün', 'gün'),
  noun('hours', 'saat', 'saat'),
  noun('hour', 'saat', 'saat'),
  noun('minutes', 'dəqiqə', 'dakika'),
  noun('max', 'maks.', 'maks.'),
  noun('min', 'min.', 'min.'),
  adj('instant', 'dərhal', 'anında'),
  adj('fast', 'sürətli', 'hızlı'),
  adj('super fast', 'çox sürətli', 'çok hızlı'),
  adj('very fast', 'çox sürətli', 'çok hızlı'),
  adj('ultra fast', 'çox sürətli', 'çok hızlı'),
  adj('slow', 'yavaş', 'yavaş'),
  adj('gradual', 'tədrici', 'kademeli'),
  noun('speed', 'sürət', 'hız'),
  noun('start', 'başlama', 'başlangıç'),
  noun('instant start', 'dərhal başlama', 'anında başlangıç'),
  noun('delivery', 'çatdırılma', 'teslimat'),
];

/** Countries (nouns) and their people (adjectives: az writes them in lower case, tr capitalised). */
const PLACES_OF_ORIGIN: GlossaryTerm[] = [
  noun('Azerbaijan', 'Azərbaycan', 'Azerbaycan'),
  adj('Azerbaijani', 'azərbaycanlı', 'Azerbaycanlı'),
  adj('Azeri', 'azərbaycanlı', 'Azerbaycanlı'),
  noun('Turkey', 'Türkiyə', 'Türkiye'),
  noun('Türkiye', 'Türkiyə', 'Türkiye'),
  adj('Turkish', 'türk', 'Türk'),
  noun('Russia', 'Rusiya', 'Rusya'),
  adj('Russian', 'rus', 'Rus'),
  noun('Georgia', 'Gürcüstan', 'Gürcistan'),
  adj('Georgian', 'gürcü', 'Gürcü'),
  noun('Kazakhstan', 'Qazaxıstan', 'Kazakistan'),
  adj('Kazakh', 'qazax', 'Kazak'),
  noun('Uzbekistan', 'Özbəkistan', 'Özbekistan'),
  adj('Uzbek', 'özbək', 'Özbek'),
  noun('Ukraine', 'Ukrayna', 'Ukrayna'),
  adj('Ukrainian', 'ukraynalı', 'Ukraynalı'),
  noun('Iran', 'İran', 'İran'),
  adj('Iranian', 'iranlı', 'İranlı'),
  adj('Persian', 'fars', 'Fars'),
  adj('Arab', 'ərəb', 'Arap'),
  adj('Arabic', 'ərəb', 'Arap'),
  noun('Saudi Arabia', 'Səudiyyə Ərəbistanı', 'Suudi Arabistan'),
  noun('UAE', 'BƏƏ', 'BAE', true),
  noun('Egypt', 'Misir', 'Mısır'),
  adj('Egyptian', 'misirli', 'Mısırlı'),
  noun('India', 'Hindistan', 'Hindistan'),
  adj('Indian', 'hind', 'Hint'),
  noun('Pakistan', 'Pakistan', 'Pakistan'),
  adj('Pakistani', 'pakistanlı', 'Pakistanlı'),
  noun('Indonesia', 'İndoneziya', 'Endonezya'),
  adj('Indonesian', 'indoneziyalı', 'Endonezyalı'),
  noun('USA', 'ABŞ', 'ABD', true),
  noun('US', 'ABŞ', 'ABD', true),
  noun('United States', 'ABŞ', 'ABD'),
  adj('American', 'amerikalı', 'Amerikalı'),
  noun('UK', 'Böyük Britaniya', 'Birleşik Krallık', true),
  noun('United Kingdom', 'Böyük Britaniya', 'Birleşik Krallık'),
  adj('British', 'britaniyalı', 'İngiliz'),
  noun('Germany', 'Almaniya', 'Almanya'),
  adj('German', 'alman', 'Alman'),
  noun('France', 'Fransa', 'Fransa'),
  adj('French', 'fransız', 'Fransız'),
  noun('Italy', 'İtaliya', 'İtalya'),
  adj('Italian', 'italyan', 'İtalyan'),
  noun('Spain', 'İspaniya', 'İspanya'),
  adj('Spanish', 'ispan', 'İspanyol'),
  noun('Brazil', 'Braziliya', 'Brezilya'),
  adj('Brazilian', 'braziliyalı', 'Brezilyalı'),
  noun('Mexico', 'Meksika', 'Meksika'),
  adj('Mexican', 'meksikalı', 'Meksikalı'),
  noun('Canada', 'Kanada', 'Kanada'),
  adj('Canadian', 'kanadalı', 'Kanadalı'),
  noun('Japan', 'Yaponiya', 'Japonya'),
  adj('Japanese', 'yapon', 'Japon'),
  noun('Korea', 'Koreya', 'Kore'),
  adj('Korean', 'koreyalı', 'Koreli'),
  noun('China', 'Çin', 'Çin'),
  adj('Chinese', 'çinli', 'Çinli'),
  noun('Vietnam', 'Vyetnam', 'Vietnam'),
  adj('Vietnamese', 'vyetnamlı', 'Vietnamlı'),
  noun('Thailand', 'Tailand', 'Tayland'),
  adj('Thai', 'tay', 'Taylandlı'),
  noun('Philippines', 'Filippin', 'Filipinler'),
  adj('Filipino', 'filippinli', 'Filipinli'),
  noun('Nigeria', 'Nigeriya', 'Nijerya'),
  adj('Nigerian', 'nigeriyalı', 'Nijeryalı'),
  noun('Europe', 'Avropa', 'Avrupa'),
  adj('European', 'avropalı', 'Avrupalı'),
  noun('Asia', 'Asiya', 'Asya'),
  adj('Asian', 'asiyalı', 'Asyalı'),
  adj('Latin American', 'latınamerikalı', 'Latin Amerikalı'),
];

/** Every term, the longer wording of the same words winning where two match (see `serviceNames.ts`). */
export const SERVICE_GLOSSARY: readonly GlossaryTerm[] = [...DELIVERED, ...PLACES, ...QUALITIES, ...TERMS_OF_DELIVERY, ...PLACES_OF_ORIGIN];
