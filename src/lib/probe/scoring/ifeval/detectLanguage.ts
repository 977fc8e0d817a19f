/**
 * A small language identifier standing in for the reference's `langdetect` (a Java-ported
 * character n-gram model we do not ship).
 *
 * How it decides: the writing system with the most letters wins. A script used by one language
 * in IFEval's list names it (Hangul → ko, Thai → th, Tamil → ta, …). Scripts shared by several
 * languages (Latin, Cyrillic, Arabic, Devanagari) are split by counting common function words
 * plus letters only one of them uses (ơ/ư → vi, ے/ٹ → ur, ы/э → ru, ß → de, ã/õ → pt).
 *
 * Limits, honestly: it knows only the languages below (IFEval's 30 codes plus es/fr/pl/uk/he
 * neighbours), needs a sentence or two of running text to see function words, defaults to the
 * most common language of a script when it sees none (Latin → en, Cyrillic → ru, Arabic → ar,
 * Devanagari → hi), and cannot tell apart languages it has no word lists for (Malay vs
 * Indonesian, Serbian vs Bulgarian Cyrillic). langdetect is itself probabilistic on short or
 * mixed text, so neither is an oracle there. Han without kana returns "zh-cn", as langdetect does.
 */

/** Scripts that, in this list, belong to one language. */
const SINGLE_LANGUAGE_SCRIPTS: readonly [RegExp, string][] = [
	[/\p{Script=Hangul}/gu, 'ko'],
	[/\p{Script=Thai}/gu, 'th'],
	[/\p{Script=Bengali}/gu, 'bn'],
	[/\p{Script=Gurmukhi}/gu, 'pa'],
	[/\p{Script=Gujarati}/gu, 'gu'],
	[/\p{Script=Tamil}/gu, 'ta'],
	[/\p{Script=Telugu}/gu, 'te'],
	[/\p{Script=Kannada}/gu, 'kn'],
	[/\p{Script=Malayalam}/gu, 'ml'],
	[/\p{Script=Hebrew}/gu, 'he'],
	[/\p{Script=Greek}/gu, 'el']
];

interface SharedScript {
	pattern: RegExp;
	fallback: string;
	/** Function words per language, space separated. */
	words: Record<string, string>;
	/** Letters that point at one language; each occurrence counts as much as a function word. */
	letters?: Record<string, RegExp>;
}

const SHARED_SCRIPTS: readonly SharedScript[] = [
	{
		pattern: /\p{Script=Latin}/gu,
		fallback: 'en',
		words: {
			en: 'the and is are of to in that it you for with this be was have not or by at from your will can we they an which their has but what would there',
			de: 'der die das und ist nicht ein eine zu mit sich den von auf für im dem des auch es sie ich wir werden wird sind oder aber als wie bei nach noch kann einen durch über zum zur',
			pt: 'de que não o os as do da dos das em um uma para com é são você se mais por no na nos muito também seu sua ao como mas ou foi ser está pelo pela isso este esta',
			it: 'di che il la le lo gli e è per un una non sono con del della dei delle nel nella al alla anche come più ma questo questa si da ha essere molto perché',
			es: 'el la los las de que y en un una es por con para no se su al del lo como más pero sus le ya o este esta muy también son está',
			fr: 'le la les de des du et est un une en que qui pour dans pas ne sur au aux avec ce cette il elle nous vous sont plus par mais ou être été',
			fi: 'ja on ei se että hän oli ovat mutta kanssa myös tämä kun niin tai joka jotka ole sen hänen mikä kuin vain voi olla jos nyt sitä mitä tässä ne me he',
			sw: 'na ya wa kwa ni za katika la cha hii kuwa au vya pia sana hiyo lakini kama watu kwamba hivyo yake wake zao huo hizi ndani baada kabla kila sisi wewe mimi',
			vi: 'của và là các những một có không được cho trong với này người để khi đã cũng như từ về thì nhưng rất bạn tôi',
			pl: 'i w z na się nie do to że jest o jak ale po co dla od tak są być tylko przez jego'
		},
		letters: {
			vi: /[ăâđơư\u1EA0-\u1EF9]/giu,
			de: /[ßü]/giu,
			pt: /[ãõ]/giu,
			es: /[ñ¿¡]/giu,
			pl: /[ąęłśźżćń]/giu,
			fi: /(?:ää|öö|yy)/giu
		}
	},
	{
		pattern: /\p{Script=Cyrillic}/gu,
		fallback: 'ru',
		words: {
			ru: 'что это как он она они для был была были его все так из же бы только если когда очень также который которые чтобы может быть есть',
			bg: 'е са че това като със във които който която ще беше има много също тези този тя се да',
			uk: 'що це як та він вона вони для бути але також який які цей ця є'
		},
		letters: { ru: /[ыэё]/giu, uk: /[іїєґ]/giu, bg: /ъ(?=\p{L})/giu }
	},
	{
		pattern: /\p{Script=Arabic}/gu,
		fallback: 'ar',
		words: {
			ar: 'في من على إلى أن عن هذا هذه التي الذي مع كان لا ما هو هي قد كل بين',
			fa: 'است و در به از که این را با برای آن یک می هم شود بود نیز کرد های ها',
			ur: 'ہے ہیں کے کی کا میں اور سے کو نہیں یہ وہ پر بھی تھا گیا کر'
		},
		letters: { ur: /[ٹڈڑںےہھ]/gu, fa: /[پچژگ]/gu, ar: /[ةيكأإ]/gu }
	},
	{
		pattern: /\p{Script=Devanagari}/gu,
		fallback: 'hi',
		words: {
			hi: 'है हैं के की में और से पर यह था थे थी नहीं भी लिए कि जो गया किया होता अपने इस',
			mr: 'आहे आहेत आणि या हे ही व ते त्या मध्ये नाही होते केले करून आपल्या साठी पण तर म्हणून असे झाले',
			ne: 'छ छन् र मा लाई पनि गर्न गरेको भएको हुन्छ थियो यो त्यो रहेको तथा छैन गर्ने हुने'
		}
	}
];

function count(text: string, pattern: RegExp): number {
	return text.match(pattern)?.length ?? 0;
}

function splitByWords(text: string, script: SharedScript): string {
	const tokens = text.toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u);
	let best = script.fallback;
	let bestScore = 0;
	for (const [language, list] of Object.entries(script.words)) {
		const words = new Set(list.split(' '));
		let score = tokens.filter((token) => words.has(token)).length;
		const letters = script.letters?.[language];
		if (letters) score += count(text, letters);
		if (score > bestScore) {
			best = language;
			bestScore = score;
		}
	}
	return best;
}

/**
 * The ISO 639-1 code of the language `text` is mostly written in, or null when it has no
 * letters at all (the reference then counts the instruction as followed).
 */
export function detectLanguage(text: string): string | null {
	const kana = count(text, /[\p{Script=Hiragana}\p{Script=Katakana}]/gu);
	const han = count(text, /\p{Script=Han}/gu);
	const candidates: { letters: number; decide: () => string }[] = [
		...SINGLE_LANGUAGE_SCRIPTS.map(([pattern, language]) => ({
			letters: count(text, pattern),
			decide: () => language
		})),
		...SHARED_SCRIPTS.map((script) => ({
			letters: count(text, script.pattern),
			decide: () => splitByWords(text, script)
		})),
		{ letters: kana + han, decide: () => (kana > 0 ? 'ja' : 'zh-cn') }
	];
	let best = candidates[0];
	for (const candidate of candidates) if (candidate.letters > best.letters) best = candidate;
	return best.letters > 0 ? best.decide() : null;
}
