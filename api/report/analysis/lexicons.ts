// Review-word lexicons, on AFINN's -5..+5 scale, and the one scorer that reads them all. English
// is AFINN-165 itself (the `sentiment` package's list); the others are lists of our own: the words
// people use in reviews of local businesses (Spanish, French, Portuguese, German, Italian, Dutch,
// Swedish, Danish, Norwegian), written folded (no accents, ß as ss; see matching.ts
// fold) in each form they take (gender, number, German endings). Decisions 0152, 0207 and 0222.
//
// Grammar, as far as a word list can follow it:
// - a text is read clause by clause (punctuation, and "but", "aber", "mais"... end one): nothing
//   turns a word in another clause;
// - an idiom is read as a whole before its words are ("pas terrible" is not great, "nicht
//   schlecht" good, "couldn't be happier" very good), a word or two between its words allowed
//   ("pas vraiment terrible", "nicht so schlecht");
// - a negator turns the first scored word up to three words after it around ("no lo recomiendo",
//   "n'est pas bon", "not the best"); the negators that also come after the verb (German, Dutch,
//   Swedish, Danish, Norwegian "nicht", "niet", "inte", "ikke"; French "pas", "jamais") turn the nearest scored word up to
//   four words before them when none follows ("Ich empfehle es nicht", "je recommande pas");
// - a word that says how the writer feels about the whole ("leider", "unfortunately", "merci")
//   is never turned.
import { createRequire } from 'node:module';
import { fold } from './matching.ts';

export interface Lexicon {
  words: Record<string, number>;
  /** Turn the first scored word up to three words after them around. */
  negators: ReadonlySet<string>;
  /** Negators that also follow what they negate: with no scored word after them, they turn the
   *  nearest one up to four words before them. */
  trailing: ReadonlySet<string>;
  /** Phrases read as a whole, longest first. */
  idioms: ReadonlyArray<{ words: readonly string[]; score: number }>;
  /** Words that end a clause ("but"). */
  breaks: ReadonlySet<string>;
  /** Every apostrophe separates words (French and Italian elision: "n'était", "l'attesa");
   *  elsewhere all but the one of "n't" do ("don't" = "dont", as AFINN writes it). */
  elision: boolean;
}

/** Words by score, each list space-separated; a word in two lists is a mistake and throws. */
function scored(groups: Record<number, string>): Record<string, number> {
  const words: Record<string, number> = {};
  for (const [score, list] of Object.entries(groups)) {
    for (const word of list.split(/\s+/).filter(Boolean)) {
      if (Object.hasOwn(words, word)) throw new Error(`lexicon: "${word}" is scored twice`);
      words[word] = Number(score);
    }
  }
  return words;
}

/** "pas terrible -2; pas mal 2": phrases, each with its score. */
function phrases(list: string): Array<{ words: string[]; score: number }> {
  return list
    .split(';')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const parts = entry.split(/\s+/);
      const score = Number(parts.pop());
      if (!Number.isFinite(score) || parts.length < 2) throw new Error(`lexicon: idiom "${entry}" needs two words or more and a score`);
      return { words: parts, score };
    });
}

interface Grammar {
  negators: string;
  trailing?: string;
  idioms?: string;
  breaks: string;
  elision?: boolean;
}

function lexicon(groups: Record<number, string>, grammar: Grammar): Lexicon;
function lexicon(words: Record<string, number>, grammar: Grammar, given: true): Lexicon;
function lexicon(groups: Record<string | number, string | number>, grammar: Grammar, given?: true): Lexicon {
  const set = (list = '') => new Set(list.split(/\s+/).filter(Boolean));
  return {
    words: given ? (groups as Record<string, number>) : scored(groups as Record<number, string>),
    negators: set(grammar.negators),
    trailing: set(grammar.trailing),
    idioms: phrases(grammar.idioms ?? '').sort((a, b) => b.words.length - a.words.length),
    breaks: set(grammar.breaks),
    elision: grammar.elision ?? false,
  };
}

/** AFINN-165: single words as English words, phrases ("does not work", "fed up") as idioms. */
const AFINN = createRequire(import.meta.url)('sentiment/languages/en/labels.json') as Record<string, number>;
const AFINN_WORDS: Record<string, number> = {};
const AFINN_PHRASES: string[] = [];
for (const [label, value] of Object.entries(AFINN)) {
  // Words only: the package adds its emoji scores to this same list when it is loaded, and NFKD
  // folds some of those to letters ("ℹ" to "i").
  if (!/^[\p{Script=Latin}\d' -]+$/u.test(label)) continue;
  const folded = fold(label);
  if (!folded) continue;
  if (folded.includes(' ')) AFINN_PHRASES.push(`${folded} ${value}`);
  else if (!Object.hasOwn(AFINN_WORDS, folded)) AFINN_WORDS[folded] = value;
}
/** AFINN's English words, folded. */
export const ENGLISH_WORDS: Readonly<Record<string, number>> = AFINN_WORDS;

/** Words about the whole visit, never turned by a negator. */
const FIXED = new Set('unfortunately sadly thanks thank leider danke malheureusement merci lamentablemente desafortunadamente gracias purtroppo grazie infelizmente obrigado obrigada helaas bedankt tyvarr tack desvaerre dessverre tak takk'.split(' '));

export const LEXICONS = {
  en: lexicon(AFINN_WORDS, {
    negators: 'not no never dont doesnt didnt isnt wasnt werent arent cant cannot couldnt wont wouldnt shouldnt hasnt havent hadnt aint nothing nobody none neither nor without hardly barely',
    idioms: `${AFINN_PHRASES.join('; ')}; nothing special -1; nothing but 0; not only 0; no doubt 0; without a doubt 0; couldnt be happier 3; could not be happier 3; couldnt be better 3; could not be better 3; couldnt ask for more 3; cant recommend enough 3; cannot recommend enough 3; cant say enough 2; could have been better -2; could be better -1; never again -3; wont be back -2; will not be back -2; not coming back -2; never coming back -2; never going back -2`,
    breaks: 'but however although though',
  }, true),
  es: lexicon(
    {
      4: 'excelente excelentes buenisimo buenisima increible increibles maravilloso maravillosa fantastico fantastica espectacular recomendadisimo',
      3: 'estupendo estupenda genial perfecto perfecta delicioso deliciosa sabroso sabrosa encanta encanto encantado encantada feliz felices',
      2: 'gusto gusta gustan gustaron bueno buena buenos buenas bien recomiendo recomendado recomendable amable amables atento atenta atentos atentas amabilidad limpio limpia limpios rico rica ricos contento contenta contentos satisfecho satisfecha mejor mejores gracias agradable profesional profesionales honesto honesta puntual puntuales eficiente eficientes confiable',
      1: 'calidad rapido rapida rapidos rapidas justo justos justa volvere volveremos volvera',
      [-1]: 'tardaron caro frio fria frios nadie nunca espera esperar tarde cobraron',
      [-2]: 'mal mentira mentiras decepcion decepcionado decepcionada decepcionante sucio sucia sucios lento lenta lentos problema problemas queja quejas carisimo olvidaron ignoraron',
      [-4]: 'malisimo malisima malisimos malisimas estafadores ladrones asqueroso asquerosa',
      [-3]: 'malo mala malos malas terrible terribles horrible horribles pesimo pesima pesimos peor fatal desastre grosero grosera groseros groseras maleducado irrespetuoso incompetente incompetentes estafa robo asco mentirosos',
    },
    {
      negators: 'no nunca jamas ni tampoco sin nada',
      idioms: 'no es gran cosa -1; nada especial -1; nada del otro mundo -1; sin duda 0; no solo 0; no solamente 0; nunca mas -3; no volvere -2; no volveremos -2; no vuelvo -2; no dudes 2; no duden 2; no lo dudes 2',
      breaks: 'pero sino aunque',
    },
  ),
  fr: lexicon(
    {
      4: 'excellent excellente excellents excellentes parfait parfaite parfaits parfaites exceptionnel exceptionnelle exceptionnels exceptionnelles merveilleux merveilleuse merveilleuses fantastique fantastiques incroyable incroyables formidable formidables extraordinaire extraordinaires magnifique magnifiques',
      3: 'super genial geniale geniaux geniales top delicieux delicieuse delicieuses adore adorons adorable adorables ravi ravie ravis ravies superbe superbes impeccable impeccables sublime sublimes bravo',
      2: 'aime aimee aimes aimons bon bonne bons bonnes bien aimable aimables sympathique sympathiques sympa sympas agreable agreables accueillant accueillante accueillants accueillantes chaleureux chaleureuse chaleureuses gentil gentille gentils gentilles propre propres professionnel professionnelle professionnels professionnelles efficace efficaces rapide rapides competent competente competents competentes serviable serviables attentionne attentionnee attentionnes souriant souriante souriants souriantes merci satisfait satisfaite satisfaits satisfaites content contente contents contentes recommande recommandons recommandable conseille honnete honnetes ponctuel ponctuelle ponctuels meilleur meilleure meilleurs meilleures savoureux savoureuse savoureuses copieux copieuse heureux heureuse heureuses',
      1: 'correct correcte corrects qualite raisonnable raisonnables frais fraiche fraiches reviendrai reviendrons reviendra revenir',
      [-1]: 'attente attendre attendu cher chere chers cheres froid froide froids froides retard tard bruyant bruyante',
      [-2]: 'mal lent lente lents lentes sale sales decu decue decus decues decevant decevante decevants decevantes deception probleme problemes plainte dommage mediocre mediocres oublie oubliee oublies ignore ignoree desagreable desagreables mensonge mensonges',
      [-3]: 'mauvais mauvaise mauvaises terrible terribles horrible horribles affreux affreuse affreuses nul nulle nuls nulles pire pires catastrophe catastrophique catastrophiques desastre desastreux desastreuse impoli impolie impolis impolies grossier grossiere grossiers grossieres arnaque arnaques incompetent incompetente incompetents incompetentes honteux honteuse inadmissible inacceptable fuir menteur menteurs menteuse',
      [-4]: 'escroc escrocs escroquerie voleur voleurs voleuse degoutant degoutante degoutants degoutantes',
    },
    {
      negators: 'ne n pas jamais aucun aucune sans ni rien',
      trailing: 'pas jamais',
      idioms: 'pas terrible -2; pas top -2; pas genial -2; pas fou -1; pas mal 2; pas cher 2; pas chere 2; pas chers 2; rien de special -1; rien de particulier -1; rien d extraordinaire -1; rien a dire 2; rien a redire 2; sans doute 0; sans aucun doute 0; non seulement 0; plus jamais -3; a eviter -3; a fuir -3; hesitez pas 2; hesitez surtout pas 2',
      breaks: 'mais cependant pourtant',
      elision: true,
    },
  ),
  pt: lexicon(
    {
      4: 'excelente excelentes otimo otima otimos otimas maravilhoso maravilhosa maravilhosos maravilhosas fantastico fantastica fantasticos perfeito perfeita perfeitos perfeitas incrivel incriveis sensacional espetacular',
      3: 'delicioso deliciosa deliciosos deliciosas adorei amei adoro recomendadissimo lindo linda impecavel impecaveis',
      2: 'bom boa bons boas bem recomendo recomendado recomendada simpatico simpatica simpaticos simpaticas atencioso atenciosa atenciosos atenciosas gentil gentis educado educada educados educadas limpo limpa limpos limpas profissional profissionais eficiente eficientes rapido rapida rapidos rapidas obrigado obrigada satisfeito satisfeita satisfeitos satisfeitas agradavel agradaveis melhor melhores honesto honesta pontual pontuais feliz felizes contente contentes gostei gostoso gostosa saboroso saborosa competente competentes prestativo prestativa prestativos',
      1: 'qualidade justo justa voltarei voltaremos voltaria',
      [-1]: 'espera esperar demora demorou caros frio fria tarde ninguem',
      [-2]: 'mal lento lenta lentos lentas sujo suja sujos sujas problema problemas reclamacao decepcao decepcionado decepcionada decepcionante demorado demorada esqueceram ignoraram mentira mentiras desagradavel',
      [-3]: 'ruim ruins pessimo pessima pessimos pessimas horrivel horriveis terrivel terriveis pior piores grosso grossa grosseiro grosseira grosseiros incompetente incompetentes desastre lixo vergonha nojo',
      [-4]: 'golpe fraude enganacao ladroes nojento nojenta',
    },
    {
      negators: 'nao nunca nem sem jamais nada nenhum nenhuma',
      idioms: 'nada demais -1; nada de especial -1; nada especial -1; sem duvida 0; nao so 0; nao apenas 0; nunca mais -3; nao voltarei -2; nao volto -2',
      breaks: 'mas porem contudo',
    },
  ),
  de: lexicon(
    {
      4: 'ausgezeichnet ausgezeichnete ausgezeichneter ausgezeichnetes ausgezeichneten hervorragend hervorragende hervorragender hervorragendes hervorragenden perfekt perfekte perfekter perfektes perfekten fantastisch fantastische fantastischer fantastisches fantastischen wunderbar wunderbare wunderbarer wunderbares wunderbaren grossartig grossartige grossartiger grossartiges grossartigen exzellent exzellente exzellenter exzellentes exzellenten spitze spitzenklasse traumhaft sensationell',
      3: 'super toll tolle toller tolles tollen lecker leckere leckerer leckeres leckeren klasse genial geniale genialer geniales genialen empfehlenswert empfehlenswerte empfehlenswerter empfehlenswertes begeistert',
      2: 'gefallen gefiel gefallt gut gute guter gutes guten freundlich freundliche freundlicher freundliches freundlichen nett nette netter nettes netten sauber saubere sauberer sauberes sauberen schnell schnelle schneller schnelles schnellen kompetent kompetente kompetenter kompetentes kompetenten professionell professionelle professioneller professionelles professionellen zuverlassig zuverlassige zuverlassiger zuverlassiges zuverlassigen zufrieden zufriedene zufriedener danke empfehlen empfehle empfohlen hilfsbereit hilfsbereite hilfsbereiter hilfsbereites hilfsbereiten punktlich punktliche angenehm angenehme angenehmer angenehmes angenehmen ehrlich ehrliche ehrlicher beste bester bestes besten gerne gern',
      1: 'qualitat fair faire preiswert gunstig gunstige frisch frische wiederkommen',
      [-1]: 'warten wartezeit gewartet teuer teure teurer teures teuren kalt kalte kalter kaltes kalten spat laut niemand leider',
      [-2]: 'langsam langsame langsamer langsames langsamen schmutzig schmutzige dreckig dreckige enttauscht enttauschend enttauschende enttauschung problem probleme vergessen ignoriert beschwerde mangelhaft unzufrieden unangenehm unmoglich',
      [-3]: 'schlecht schlechte schlechter schlechtes schlechten schlechteste schrecklich schreckliche schrecklicher schreckliches schrecklichen furchtbar furchtbare furchtbarer furchtbares furchtbaren katastrophe katastrophal katastrophale unfreundlich unfreundliche unfreundlicher unfreundliches unfreundlichen unverschamt unverschamte unverschamter inkompetent inkompetente inkompetenter grauenhaft grauenvoll miserabel mies miese',
      [-4]: 'abzocke betrug betruger ekelhaft ekelhafte eklig',
    },
    {
      negators: 'nicht kein keine keinen keinem keiner keines nie niemals ohne nichts',
      trailing: 'nicht nie niemals',
      idioms: 'nicht schlecht 2; nicht ubel 2; nichts besonderes -1; nichts zu meckern 2; nichts auszusetzen 2; ohne zweifel 0; nicht nur 0; nie wieder -3; nicht das gelbe vom ei -2; nicht der hit -2; nicht zu empfehlen -2',
      breaks: 'aber sondern jedoch doch allerdings',
    },
  ),
  it: lexicon(
    {
      4: 'eccellente eccellenti ottimo ottima ottimi ottime perfetto perfetta perfetti perfette fantastico fantastica fantastici fantastiche meraviglioso meravigliosa meravigliosi meravigliose straordinario straordinaria eccezionale eccezionali spettacolare spettacolari favoloso favolosa',
      3: 'buonissimo buonissima buonissimi buonissime delizioso deliziosa deliziosi deliziose squisito squisita stupendo stupenda bellissimo bellissima consigliatissimo impeccabile impeccabili',
      2: 'piace piaciuto piaciuta piaciuti piaciute buono buona buoni buone bene bravo brava bravi brave gentile gentili cortese cortesi simpatico simpatica simpatici simpatiche pulito pulita puliti pulite professionale professionali efficiente efficienti veloce veloci rapido rapida rapidi rapide grazie consiglio consigliato consigliata consigliati soddisfatto soddisfatta soddisfatti soddisfatte contento contenta contenti contente migliore migliori onesto onesta puntuale puntuali piacevole piacevoli accogliente accoglienti disponibile disponibili competente competenti gustoso gustosa',
      1: 'qualita giusto giusta tornero torneremo',
      [-1]: 'attesa aspettare aspettato caro cari costoso costosa freddo fredda freddi fredde tardi nessuno ritardo',
      [-2]: 'male lento lenta lenti lente sporco sporca sporchi sporche deluso delusa delusi deluse deludente deludenti delusione problema problemi lamentela dimenticato ignorato bugia bugie sgradevole',
      [-3]: 'cattivo cattiva cattivi cattive pessimo pessima pessimi pessime terribile terribili orribile orribili peggiore peggio schifo schifoso schifosa vergogna vergognoso maleducato maleducata maleducati scortese scortesi incompetente incompetenti disastro',
      [-4]: 'truffa truffatori ladri disgustoso disgustosa',
    },
    {
      negators: 'non mai senza niente nessun nessuno nessuna',
      idioms: 'non male 2; niente male 2; niente di speciale -1; niente di che -1; non e il massimo -2; senza dubbio 0; non solo 0; mai piu -3; non tornero -2; non torneremo -2; non esitate 2',
      breaks: 'ma pero tuttavia',
      elision: true,
    },
  ),
  nl: lexicon(
    {
      4: 'uitstekend uitstekende geweldig geweldige fantastisch fantastische voortreffelijk voortreffelijke fenomenaal subliem',
      3: 'heerlijk heerlijke lekker lekkere aanrader toppie gezellig gezellige aanbevolen',
      2: 'goed goede prima fijn fijne vriendelijk vriendelijke aardig aardige behulpzaam behulpzame netjes schoon schone snel snelle professioneel professionele bedankt tevreden aanraden aanbevelen beste mooi mooie vakkundig vakkundige',
      1: 'redelijk redelijke betaalbaar betaalbare kwaliteit vers verse terugkomen',
      [-1]: 'wachten wachttijd gewacht duur dure koud koude helaas niemand',
      [-2]: 'traag trage langzaam vies vieze smerig smerige teleurgesteld teleurstellend teleurstellende teleurstelling probleem problemen klacht klachten onvriendelijk onvriendelijke ontevreden matig matige vergeten genegeerd',
      [-3]: 'slecht slechte slechtste verschrikkelijk verschrikkelijke vreselijk vreselijke afschuwelijk afschuwelijke waardeloos waardeloze onbeschoft onbeschofte schandalig schandalige belachelijk ramp',
      [-4]: 'oplichters oplichting bedrog walgelijk walgelijke',
    },
    {
      negators: 'niet geen nooit niets zonder niemand',
      trailing: 'niet nooit',
      idioms: 'niet slecht 2; niet verkeerd 2; niets bijzonders -1; niets mis mee 2; zonder twijfel 0; niet alleen 0; nooit meer -3',
      breaks: 'maar echter',
    },
  ),
  sv: lexicon(
    {
      4: 'utmarkt utmarkta fantastisk fantastiskt fantastiska perfekt perfekta underbar underbart underbara suveran suverant suverana enastaende fenomenal fenomenalt',
      3: 'jattebra toppen grym grymt grymma lacker lackert lackra jattegod jattegott rekommenderas',
      2: 'gillade gillar bra god gott goda trevlig trevligt trevliga snabb snabbt snabba ren rent rena proffsig proffsigt proffsiga professionell hjalpsam hjalpsamma nojd nojda rekommenderar rekommendera basta prisvard prisvart mysig mysigt mysiga fin fint fina prima',
      1: 'okej rimlig rimligt rimliga kvalitet farsk farskt',
      [-1]: 'vanta vantade vantetid dyr dyrt dyra kall kallt kalla ingen',
      [-2]: 'langsam langsamt langsamma smutsig smutsigt smutsiga besviken besvikna besvikelse problem klagomal otrevlig otrevligt otrevliga missnojd missnojda medioker illa',
      [-3]: 'dalig daligt daliga samst hemsk hemskt hemska fruktansvard fruktansvart fruktansvarda oforskamd oforskamt katastrof usel uselt usla varst varsta',
      [-4]: 'bedrageri bedragare acklig ackligt',
    },
    {
      negators: 'inte ej aldrig inget inga utan',
      trailing: 'inte ej aldrig',
      idioms: 'inget speciellt -1; inget sarskilt -1; inte illa 2; aldrig mer -3; aldrig igen -3; inte bara 0; utan tvekan 0',
      breaks: 'men',
    },
  ),
  da: lexicon(
    {
      4: 'fantastisk fantastiske fremragende perfekt perfekte vidunderlig vidunderlige formidabel suveraen enestaende',
      3: 'laekker laekkert laekre skon skont skonne dejlig dejligt dejlige anbefales',
      2: 'god godt gode venlig venligt venlige flink flinke hurtig hurtigt hurtige ren rent rene professionel professionelle hjaelpsom hjaelpsomme tilfreds anbefaler anbefale bedste hyggelig hyggeligt fin fint kompetent kompetente',
      1: 'rimelig rimeligt rimelige kvalitet frisk friske',
      [-1]: 'vente ventetid ventede dyr dyrt dyre kold koldt kolde',
      [-2]: 'langsom langsomt langsomme beskidt beskidte skuffet skuffende skuffelse problem problemer klage utilfreds uvenlig uvenlige middelmadig',
      [-3]: 'darlig darligt darlige elendig elendigt elendige forfaerdelig forfaerdeligt forfaerdelige frygtelig frygteligt uhoflig uhoflige katastrofe vaerst vaerste',
      [-4]: 'svindel svindlere ulaekker ulaekkert',
    },
    {
      negators: 'ikke aldrig ingen intet uden',
      trailing: 'ikke aldrig',
      idioms: 'ikke darligt 2; ikke darlig 2; intet saerligt -1; aldrig igen -3; ikke kun 0; uden tvivl 0',
      breaks: 'men',
    },
  ),
  no: lexicon(
    {
      4: 'fantastisk fantastiske utmerket utmerkede perfekt perfekte stralende fremragende enestaende',
      3: 'nydelig nydelige deilig deilige herlig herlige anbefales kjempegod kjempegodt kjempebra',
      2: 'god godt gode bra vennlig vennlige hyggelig hyggelige rask raskt raske ren rent rene profesjonell profesjonelle hjelpsom hjelpsomme fornoyd fornoyde anbefaler anbefale beste fin fint flink flinke',
      1: 'grei greit rimelig rimelige kvalitet fersk ferske',
      [-1]: 'vente ventetid ventet dyr dyrt dyre kald kaldt kalde',
      [-2]: 'treg tregt trege skitten skittent skitne skuffet skuffende skuffelse problem problemer klage misfornoyd uvennlig uvennlige middelmadig',
      [-3]: 'darlig darlige elendig elendige forferdelig forferdelige fryktelig frekk frekke katastrofe verst verste',
      [-4]: 'svindel svindlere ekkel ekkelt',
    },
    {
      negators: 'ikke aldri ingen ingenting uten',
      trailing: 'ikke aldri',
      idioms: 'ikke darlig 2; ikke verst 2; ingenting spesielt -1; aldri igjen -3; ikke bare 0; uten tvil 0',
      breaks: 'men',
    },
  ),
} satisfies Record<string, Lexicon>;

export type LexiconLanguage = keyof typeof LEXICONS;

/** AFINN's measure on a text: the total of its scored words and idioms, and the total per word. */
export function scoreWith(lexicon: Lexicon, text: string): { score: number; comparative: number } {
  let score = 0;
  let words = 0;
  // An apostrophe separates words ("I'll" is "I ll", not "ill"; "we'll" not "well"), except in
  // English's "n't", which AFINN and the negators write joined ("dont").
  const prepared = text.replace(lexicon.elision ? /['’ʼ`´]/gu : /['’ʼ`´](?!t(?!\p{L}))/giu, ' ');
  for (const clause of prepared.split(/[.!?;:,()[\]{}\n\r…"“”„«»¡¿]+|\s[-–—]+\s/u)) {
    const tokens = fold(clause).split(' ').filter(Boolean);
    words += tokens.length;
    let part: string[] = [];
    for (const token of tokens) {
      if (lexicon.breaks.has(token)) {
        score += scoreClause(lexicon, part);
        part = [];
      } else part.push(token);
    }
    score += scoreClause(lexicon, part);
  }
  return { score, comparative: words ? score / words : 0 };
}

function scoreClause(lexicon: Lexicon, tokens: string[]): number {
  const used = tokens.map(() => false);
  const valueAt = (k: number) => (!used[k] && Object.hasOwn(lexicon.words, tokens[k]!) ? lexicon.words[tokens[k]!]! : 0);
  const stops = (k: number) => valueAt(k) !== 0 || lexicon.negators.has(tokens[k]!);
  let score = 0;
  // Idioms first, longest first: their words are then neither scored nor negators.
  for (const idiom of lexicon.idioms) {
    for (let i = 0; i < tokens.length; i++) {
      if (used[i] || tokens[i] !== idiom.words[0]) continue;
      const at = [i];
      for (const word of idiom.words.slice(1)) {
        const from = at[at.length - 1]!;
        let found = -1;
        // Up to two words between ("pas vraiment terrible"), none of them scored or a negator.
        for (let k = from + 1; k <= from + 3 && k < tokens.length && !used[k]; k++) {
          if (tokens[k] === word) {
            found = k;
            break;
          }
          if (stops(k)) break;
        }
        if (found < 0) break;
        at.push(found);
      }
      if (at.length !== idiom.words.length) continue;
      for (const k of at) used[k] = true;
      score += idiom.score;
    }
  }
  const turnable = (k: number) => valueAt(k) !== 0 && !lexicon.negators.has(tokens[k]!) && !FIXED.has(tokens[k]!);
  const negated = new Set<number>();
  tokens.forEach((token, j) => {
    if (used[j] || !lexicon.negators.has(token)) return;
    for (let k = j + 1; k <= j + 3 && k < tokens.length && !used[k]; k++) {
      if (turnable(k)) return void negated.add(k);
    }
    if (!lexicon.trailing.has(token)) return;
    for (let k = j - 1; k >= j - 4 && k >= 0 && !used[k]; k--) {
      if (turnable(k)) return void negated.add(k);
    }
  });
  tokens.forEach((_, k) => {
    const value = valueAt(k);
    score += negated.has(k) ? -value : value;
  });
  return score;
}
