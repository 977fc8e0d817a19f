import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../../../../src/lib/probe/scoring/ifeval/index.ts';
import { readJsonl } from '../../../../helpers/fixtures.ts';

/** One sentence in each language the IFEval fixture asks for, plus English. */
const SAMPLES: [string, string][] = [
	['kn', 'ಕನ್ನಡ ಭಾರತದ ಕರ್ನಾಟಕ ರಾಜ್ಯದ ಅಧಿಕೃತ ಭಾಷೆಯಾಗಿದೆ.'],
	['pa', 'ਪੰਜਾਬੀ ਭਾਸ਼ਾ ਪੰਜਾਬ ਦੀ ਮੁੱਖ ਭਾਸ਼ਾ ਹੈ।'],
	['mr', 'मराठी ही महाराष्ट्राची राजभाषा आहे आणि ती कोट्यवधी लोक बोलतात.'],
	['hi', 'हिंदी भारत की सबसे अधिक बोली जाने वाली भाषा है और यह बहुत सुंदर है।'],
	['ne', 'नेपाल एक सुन्दर देश हो र यहाँ धेरै हिमालहरू छन्। यो देश पनि शान्त छ।'],
	['fa', 'زبان فارسی یکی از زبان‌های مهم جهان است و در ایران صحبت می‌شود.'],
	['ur', 'اردو پاکستان کی قومی زبان ہے اور یہ بہت خوبصورت ہے۔'],
	['ar', 'اللغة العربية هي لغة رسمية في العديد من الدول.'],
	['vi', 'Tiếng Việt là ngôn ngữ chính thức của Việt Nam và có nhiều người nói.'],
	['ko', '한국어는 대한민국의 공용어입니다.'],
	['sw', 'Kiswahili ni lugha ya taifa nchini Tanzania na Kenya, na inazungumzwa na watu wengi.'],
	[
		'ru',
		'Русский язык является одним из самых распространённых языков мира, и на нём говорят очень многие.'
	],
	[
		'bg',
		'Българският език е официалният език на България и се говори от около седем милиона души.'
	],
	['pt', 'A língua portuguesa é falada em muitos países e tem uma história muito rica.'],
	['gu', 'ગુજરાતી ભાષા ગુજરાત રાજ્યની મુખ્ય ભાષા છે.'],
	['te', 'తెలుగు భారతదేశంలో ఎక్కువగా మాట్లాడే భాషలలో ఒకటి.'],
	['it', 'La lingua italiana è parlata da milioni di persone ed è molto bella.'],
	['de', 'Die deutsche Sprache wird in vielen Ländern gesprochen und ist sehr vielfältig.'],
	['fi', 'Suomen kieli on Suomen virallinen kieli, ja sitä puhuu noin viisi miljoonaa ihmistä.'],
	['ta', 'தமிழ் உலகின் மிகப் பழமையான மொழிகளில் ஒன்றாகும்.'],
	['th', 'ภาษาไทยเป็นภาษาราชการของประเทศไทย'],
	['bn', 'বাংলা বিশ্বের অন্যতম প্রধান ভাষা।'],
	['en', 'The weather is nice today and we are going to the park.']
];

describe('detectLanguage', () => {
	it.each(SAMPLES)('detects %s', (language, text) => {
		expect(detectLanguage(text)).toBe(language);
	});

	it('has a sample for every language the IFEval fixture requests', () => {
		const requested = readJsonl<{ kwargs: Record<string, unknown>[] }>('ifeval/input_data.jsonl')
			.flatMap((row) => row.kwargs.map((k) => k.language))
			.filter((language): language is string => typeof language === 'string');
		const sampled = new Set(SAMPLES.map(([language]) => language));
		expect([...new Set(requested)].filter((language) => !sampled.has(language))).toEqual([]);
	});

	it('goes by the script with the most letters in mixed text', () => {
		expect(
			detectLanguage('मुझे Python सीखना है और यह भाषा बहुत उपयोगी है क्योंकि इससे काम आसान होता है।')
		).toBe('hi');
	});

	it('reads English written in capitals as English', () => {
		expect(detectLanguage('THE REPORT IS READY AND IT WILL BE SENT TO YOU TODAY.')).toBe('en');
	});

	it('returns null for text without letters', () => {
		expect(detectLanguage('12 + 30 = 42 !!!')).toBeNull();
	});

	it('tells Japanese (kana) from Chinese (Han only)', () => {
		expect(detectLanguage('日本語はとても面白いです。')).toBe('ja');
		expect(detectLanguage('中文是世界上使用人数最多的语言。')).toBe('zh-cn');
	});
});
