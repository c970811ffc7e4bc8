import type { NPS_SETS } from './course.rules.ts';

export type NpsSetId = (typeof NPS_SETS)[number];
export type NpsReasons = { readonly detractor: readonly string[]; readonly neutral: readonly string[]; readonly promoter: readonly string[] };

/**
 * The predefined NPS sets of spec §3 (1 to 5 and 8): what a survey asks about and the follow-up
 * reasons offered to detractors (0-6), neutrals (7-8) and promoters (9-10). An author picks a set and
 * gets its question and reasons to start from; they stay editable per block, and the statistics
 * count whichever reasons the block carried when it was answered.
 */
export const NPS_SET_DEFAULTS: Readonly<Record<NpsSetId, { readonly label: string; readonly question: string; readonly reasons: NpsReasons }>> = {
  1: {
    label: 'Izobraževanje na splošno',
    question: 'Kako verjetno je, da bi to izobraževanje priporočili kolegu?',
    reasons: {
      detractor: ['Vsebina ni bila uporabna za moje delo', 'Predolgo ali preveč razvlečeno', 'Premalo novega znanja', 'Tehnične težave'],
      neutral: ['Deloma uporabno', 'Želel(a) bi več praktičnih primerov', 'Primerno, a nič posebnega'],
      promoter: ['Uporabno v vsakdanji praksi', 'Jasno in pregledno podano', 'Veliko novega znanja', 'Primerna dolžina'],
    },
  },
  2: {
    label: 'Predavatelj',
    question: 'Kako verjetno je, da bi predavanja tega predavatelja priporočili kolegu?',
    reasons: {
      detractor: ['Nejasna razlaga', 'Prehitro ali prepočasi', 'Premalo strokovnih podlag'],
      neutral: ['Razumljivo, a premalo zanimivo', 'Želel(a) bi več primerov iz prakse'],
      promoter: ['Strokoven in prepričljiv', 'Jasna in zanimiva razlaga', 'Odlični primeri iz prakse'],
    },
  },
  3: {
    label: 'Vsebina in gradivo',
    question: 'Kako verjetno je, da bi gradivo tega izobraževanja priporočili kolegu?',
    reasons: {
      detractor: ['Gradivo je zastarelo', 'Napake ali nejasnosti v gradivu', 'Premalo virov'],
      neutral: ['Gradivo je ustrezno, a skromno', 'Manjkajo povzetki'],
      promoter: ['Aktualno gradivo', 'Dobri povzetki in viri', 'Uporabno za kasnejši pregled'],
    },
  },
  4: {
    label: 'Zdravilo ali izdelek',
    question: 'Kako verjetno je, da bi predstavljeno zdravilo ali izdelek priporočili pacientu ali kolegu?',
    reasons: {
      detractor: ['Premalo podatkov o učinkovitosti', 'Premalo podatkov o varnosti', 'Ni primerno za moje paciente', 'Cena'],
      neutral: ['Potrebujem več izkušenj z izdelkom', 'Enakovredno obstoječim možnostim'],
      promoter: ['Prepričljivi klinični podatki', 'Dobra varnost in prenašanje', 'Koristno za moje paciente'],
    },
  },
  5: {
    label: 'Spletni dogodek',
    question: 'Kako verjetno je, da bi ta spletni dogodek priporočili kolegu?',
    reasons: {
      detractor: ['Slaba slika ali zvok', 'Neprimeren termin', 'Premalo časa za vprašanja'],
      neutral: ['Dogodek je bil predolg', 'Želel(a) bi več interakcije'],
      promoter: ['Dobra izvedba', 'Odgovori na vprašanja v živo', 'Primeren termin in trajanje'],
    },
  },
  8: {
    label: 'Izobraževalna platforma',
    question: 'Kako verjetno je, da bi to izobraževalno platformo priporočili kolegu?',
    reasons: {
      detractor: ['Težave s prijavo ali dostopom', 'Nepregledna uporaba', 'Premalo izobraževanj za moj poklic'],
      neutral: ['Uporabna, a bi jo lahko izboljšali', 'Počasno nalaganje'],
      promoter: ['Enostavna uporaba', 'Kreditne točke in potrdila na enem mestu', 'Veliko kakovostnih izobraževanj'],
    },
  },
};
