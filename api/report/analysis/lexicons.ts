// Review-word lexicons of our own for the languages AFINN-165 does not cover, on AFINN's -5..+5
// scale: the words people use in reviews of local businesses, written folded (no accents, ß as
// ss; see matching.ts fold) in each form they take (gender, number, German endings). A negator up
// to two words before a word turns it around ("no es bueno", "n'est pas bon", "não é bom",
// "nicht gut", "non è buono"); a negator is never turned itself. Decisions 0152 and 0207.

export interface Lexicon {
  words: Record<string, number>;
  negators: ReadonlySet<string>;
}

/** Words by score, each list space-separated; a word in two lists is a mistake and throws. */
function scored(groups: Record<number, string>): Record<string, number> {
  const words: Record<string, number> = {};
  for (const [score, list] of Object.entries(groups)) {
    for (const word of list.split(/\s+/).filter(Boolean)) {
      if (word in words) throw new Error(`lexicon: "${word}" is scored twice`);
      words[word] = Number(score);
    }
  }
  return words;
}

const lexicon = (groups: Record<number, string>, negators: string): Lexicon => ({ words: scored(groups), negators: new Set(negators.split(' ')) });

export const LEXICONS = {
  es: lexicon(
    {
      4: 'excelente excelentes buenisimo buenisima increible increibles maravilloso maravillosa fantastico fantastica espectacular recomendadisimo',
      3: 'estupendo estupenda genial perfecto perfecta delicioso deliciosa sabroso sabrosa encanta encanto encantado encantada feliz felices',
      2: 'bueno buena buenos buenas bien recomiendo recomendado recomendable amable amables atento atenta atentos atentas amabilidad limpio limpia limpios rico rica ricos contento contenta contentos satisfecho satisfecha mejor mejores gracias agradable profesional profesionales honesto honesta puntual puntuales eficiente eficientes confiable',
      1: 'calidad rapido rapida rapidos rapidas justo justos justa',
      [-1]: 'tardaron caro frio fria frios nadie nunca espera esperar tarde cobraron',
      [-2]: 'mal mentira mentiras decepcion decepcionado decepcionada decepcionante sucio sucia sucios lento lenta lentos problema problemas queja quejas carisimo olvidaron ignoraron',
      [-3]: 'malo mala malos malas terrible terribles horrible horribles pesimo pesima pesimos peor fatal desastre grosero grosera groseros groseras maleducado irrespetuoso incompetente incompetentes estafa robo asco mentirosos',
      [-4]: 'estafadores ladrones asqueroso asquerosa',
    },
    'no nunca jamas ni tampoco sin',
  ),
  fr: lexicon(
    {
      4: 'excellent excellente excellents excellentes parfait parfaite parfaits parfaites exceptionnel exceptionnelle exceptionnels exceptionnelles merveilleux merveilleuse merveilleuses fantastique fantastiques incroyable incroyables formidable formidables extraordinaire extraordinaires magnifique magnifiques',
      3: 'super genial geniale geniaux geniales top delicieux delicieuse delicieuses adore adorons adorable adorables ravi ravie ravis ravies superbe superbes impeccable impeccables sublime sublimes bravo',
      2: 'bon bonne bons bonnes bien aimable aimables sympathique sympathiques sympa sympas agreable agreables accueillant accueillante accueillants accueillantes chaleureux chaleureuse chaleureuses gentil gentille gentils gentilles propre propres professionnel professionnelle professionnels professionnelles efficace efficaces rapide rapides competent competente competents competentes serviable serviables attentionne attentionnee attentionnes souriant souriante souriants souriantes merci satisfait satisfaite satisfaits satisfaites content contente contents contentes recommande recommandons recommandable conseille honnete honnetes ponctuel ponctuelle ponctuels meilleur meilleure meilleurs meilleures savoureux savoureuse savoureuses copieux copieuse heureux heureuse heureuses',
      1: 'correct correcte corrects qualite raisonnable raisonnables frais fraiche fraiches',
      [-1]: 'attente attendre attendu cher chere chers cheres froid froide froids froides retard tard bruyant bruyante',
      [-2]: 'mal lent lente lents lentes sale sales decu decue decus decues decevant decevante decevants decevantes deception probleme problemes plainte dommage mediocre mediocres oublie oubliee oublies ignore ignoree desagreable desagreables mensonge mensonges',
      [-3]: 'mauvais mauvaise mauvaises terrible terribles horrible horribles affreux affreuse affreuses nul nulle nuls nulles pire pires catastrophe catastrophique catastrophiques desastre desastreux desastreuse impoli impolie impolis impolies grossier grossiere grossiers grossieres arnaque arnaques incompetent incompetente incompetents incompetentes honteux honteuse inadmissible inacceptable fuir menteur menteurs menteuse',
      [-4]: 'escroc escrocs escroquerie voleur voleurs voleuse degoutant degoutante degoutants degoutantes',
    },
    'ne n pas jamais aucun aucune sans ni rien',
  ),
  pt: lexicon(
    {
      4: 'excelente excelentes otimo otima otimos otimas maravilhoso maravilhosa maravilhosos maravilhosas fantastico fantastica fantasticos perfeito perfeita perfeitos perfeitas incrivel incriveis sensacional espetacular',
      3: 'delicioso deliciosa deliciosos deliciosas adorei amei adoro recomendadissimo lindo linda impecavel impecaveis',
      2: 'bom boa bons boas bem recomendo recomendado recomendada simpatico simpatica simpaticos simpaticas atencioso atenciosa atenciosos atenciosas gentil gentis educado educada educados educadas limpo limpa limpos limpas profissional profissionais eficiente eficientes rapido rapida rapidos rapidas obrigado obrigada satisfeito satisfeita satisfeitos satisfeitas agradavel agradaveis melhor melhores honesto honesta pontual pontuais feliz felizes contente contentes gostei gostoso gostosa saboroso saborosa competente competentes prestativo prestativa prestativos',
      1: 'qualidade justo justa',
      [-1]: 'espera esperar demora demorou caros frio fria tarde ninguem',
      [-2]: 'mal lento lenta lentos lentas sujo suja sujos sujas problema problemas reclamacao decepcao decepcionado decepcionada decepcionante demorado demorada esqueceram ignoraram mentira mentiras desagradavel',
      [-3]: 'ruim ruins pessimo pessima pessimos pessimas horrivel horriveis terrivel terriveis pior piores grosso grossa grosseiro grosseira grosseiros incompetente incompetentes desastre lixo vergonha nojo',
      [-4]: 'golpe fraude enganacao ladroes nojento nojenta',
    },
    'nao nunca nem sem jamais nada nenhum nenhuma',
  ),
  de: lexicon(
    {
      4: 'ausgezeichnet ausgezeichnete ausgezeichneter ausgezeichnetes ausgezeichneten hervorragend hervorragende hervorragender hervorragendes hervorragenden perfekt perfekte perfekter perfektes perfekten fantastisch fantastische fantastischer fantastisches fantastischen wunderbar wunderbare wunderbarer wunderbares wunderbaren grossartig grossartige grossartiger grossartiges grossartigen exzellent exzellente exzellenter exzellentes exzellenten spitze spitzenklasse traumhaft sensationell',
      3: 'super toll tolle toller tolles tollen lecker leckere leckerer leckeres leckeren klasse genial geniale genialer geniales genialen empfehlenswert empfehlenswerte empfehlenswerter empfehlenswertes begeistert',
      2: 'gut gute guter gutes guten freundlich freundliche freundlicher freundliches freundlichen nett nette netter nettes netten sauber saubere sauberer sauberes sauberen schnell schnelle schneller schnelles schnellen kompetent kompetente kompetenter kompetentes kompetenten professionell professionelle professioneller professionelles professionellen zuverlassig zuverlassige zuverlassiger zuverlassiges zuverlassigen zufrieden zufriedene zufriedener danke empfehlen empfehle empfohlen hilfsbereit hilfsbereite hilfsbereiter hilfsbereites hilfsbereiten punktlich punktliche angenehm angenehme angenehmer angenehmes angenehmen ehrlich ehrliche ehrlicher beste bester bestes besten gerne gern',
      1: 'qualitat fair faire preiswert gunstig gunstige frisch frische',
      [-1]: 'warten wartezeit gewartet teuer teure teurer teures teuren kalt kalte kalter kaltes kalten spat laut niemand leider',
      [-2]: 'langsam langsame langsamer langsames langsamen schmutzig schmutzige dreckig dreckige enttauscht enttauschend enttauschende enttauschung problem probleme vergessen ignoriert beschwerde mangelhaft unzufrieden unangenehm unmoglich',
      [-3]: 'schlecht schlechte schlechter schlechtes schlechten schlechteste schrecklich schreckliche schrecklicher schreckliches schrecklichen furchtbar furchtbare furchtbarer furchtbares furchtbaren katastrophe katastrophal katastrophale unfreundlich unfreundliche unfreundlicher unfreundliches unfreundlichen unverschamt unverschamte unverschamter inkompetent inkompetente inkompetenter grauenhaft grauenvoll miserabel mies miese',
      [-4]: 'abzocke betrug betruger ekelhaft ekelhafte eklig',
    },
    'nicht kein keine keinen keinem keiner keines nie niemals ohne nichts',
  ),
  it: lexicon(
    {
      4: 'eccellente eccellenti ottimo ottima ottimi ottime perfetto perfetta perfetti perfette fantastico fantastica fantastici fantastiche meraviglioso meravigliosa meravigliosi meravigliose straordinario straordinaria eccezionale eccezionali spettacolare spettacolari favoloso favolosa',
      3: 'buonissimo buonissima buonissimi buonissime delizioso deliziosa deliziosi deliziose squisito squisita stupendo stupenda bellissimo bellissima consigliatissimo impeccabile impeccabili',
      2: 'buono buona buoni buone bene bravo brava bravi brave gentile gentili cortese cortesi simpatico simpatica simpatici simpatiche pulito pulita puliti pulite professionale professionali efficiente efficienti veloce veloci rapido rapida rapidi rapide grazie consiglio consigliato consigliata consigliati soddisfatto soddisfatta soddisfatti soddisfatte contento contenta contenti contente migliore migliori onesto onesta puntuale puntuali piacevole piacevoli accogliente accoglienti disponibile disponibili competente competenti gustoso gustosa',
      1: 'qualita giusto giusta',
      [-1]: 'attesa aspettare aspettato caro cari costoso costosa freddo fredda freddi fredde tardi nessuno ritardo',
      [-2]: 'male lento lenta lenti lente sporco sporca sporchi sporche deluso delusa delusi deluse deludente deludenti delusione problema problemi lamentela dimenticato ignorato bugia bugie sgradevole',
      [-3]: 'cattivo cattiva cattivi cattive pessimo pessima pessimi pessime terribile terribili orribile orribili peggiore peggio schifo schifoso schifosa vergogna vergognoso maleducato maleducata maleducati scortese scortesi incompetente incompetenti disastro',
      [-4]: 'truffa truffatori ladri disgustoso disgustosa',
    },
    'non mai senza niente nessun',
  ),
} satisfies Record<string, Lexicon>;

export type LexiconLanguage = keyof typeof LEXICONS;

/** AFINN's measure on a folded text: the total of its scored words and the total per word. */
export function scoreWith(lexicon: Lexicon, folded: string): { score: number; comparative: number } {
  const tokens = folded.split(' ').filter(Boolean);
  let score = 0;
  tokens.forEach((token, i) => {
    const value = lexicon.words[token];
    if (!value) return;
    const negated = !lexicon.negators.has(token) && [1, 2].some((back) => i >= back && lexicon.negators.has(tokens[i - back]!));
    score += negated ? -value : value;
  });
  return { score, comparative: tokens.length ? score / tokens.length : 0 };
}
