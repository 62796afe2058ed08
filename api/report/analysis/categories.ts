// Business categories the analysis recognises: how to infer one from a company name or a website's
// words, the matching Google Places type and Yelp category alias, and the vocabulary the sample
// provider uses to make a plausible local market for it. Keywords are matched folded (see
// matching.ts) and come in the languages of the US markets and the providers' listings: English,
// Spanish, French, Russian, Japanese, Korean, Chinese, Thai.
import { countPhrase, fold } from './matching.ts';

export interface Category {
  id: string;
  label: string;
  /** Words (lower case, matched on word boundaries) that point to this category. */
  keywords: string[];
  google: string;
  yelp: string;
  /** Sample market: name stems and suffixes, services and review themes. */
  nameStems: string[];
  suffixes: string[];
  services: string[];
  praise: string[];
  complaints: string[];
}

export const CATEGORIES: Category[] = [
  {
    id: 'dentist',
    label: 'Dentist',
    keywords: ['dental', 'dentist', 'dentistry', 'smile', 'smiles', 'orthodontic', 'orthodontics', 'teeth', 'implants', 'dentista', 'dentistas', 'odontologia', 'dentaire', 'стоматология', 'стоматолог', '歯科', '치과', '牙科', '牙醫', 'ทันตกรรม'],
    google: 'dentist',
    yelp: 'dentists',
    nameStems: ['Family', 'Bright', 'Gentle', 'Modern', 'Premier', 'Advanced', 'Pure', 'Park'],
    suffixes: ['Dental', 'Dentistry', 'Dental Care', 'Smiles', 'Dental Studio', 'Family Dentistry'],
    services: ['Cleanings and exams', 'Teeth whitening', 'Dental implants', 'Invisalign', 'Emergency dentistry', 'Crowns and bridges'],
    praise: ['the hygienist was gentle', 'no wait at all', 'the dentist explained every step', 'spotless office', 'billing was clear', 'they fit me in the same day'],
    complaints: ['waited 45 minutes past my appointment', 'surprise charges on the bill', 'the front desk was rude', 'hard to get an appointment', 'insurance paperwork was a mess'],
  },
  {
    id: 'plumber',
    label: 'Plumber',
    keywords: ['plumbing', 'plumber', 'plumbers', 'drain', 'drains', 'rooter', 'pipe', 'water heater', 'plomero', 'plomeria', 'fontanero', 'fontaneria', 'plombier', 'сантехник', '水道', '설비', '배관', '水管'],
    google: 'plumber',
    yelp: 'plumbing',
    nameStems: ['Reliable', 'Express', 'Pro', 'Blue Line', 'Ace', 'Hometown', 'Precision', 'Rapid'],
    suffixes: ['Plumbing', 'Plumbing Co.', 'Plumbing & Drain', 'Rooter', 'Plumbing Services'],
    services: ['Drain cleaning', 'Water heater repair', 'Leak detection', 'Sewer line repair', 'Fixture installation', '24/7 emergency service'],
    praise: ['arrived on time', 'fixed the leak fast', 'fair upfront price', 'cleaned up after the job', 'the technician was friendly', 'came out the same day'],
    complaints: ['never showed up', 'the price doubled on site', 'the leak came back a week later', 'left a mess', 'no one answered the phone'],
  },
  {
    id: 'restaurant',
    label: 'Restaurant',
    keywords: ['restaurant', 'grill', 'kitchen', 'bistro', 'cafe', 'coffee', 'diner', 'eatery', 'pizza', 'pizzeria', 'tacos', 'taqueria', 'bbq', 'barbecue', 'sushi', 'burger', 'burgers', 'noodle', 'noodles', 'ramen', 'pho', 'bakery', 'restaurante', 'cocina', 'cafeteria', 'panaderia', 'trattoria', 'brasserie', 'кафе', 'ресторан', 'кофейня', 'レストラン', 'カフェ', '食堂', '寿司', 'ラーメン', '喫茶', '식당', '레스토랑', '카페', '갈비', '고기', '치킨', '국밥', '餐厅', '餐廳', '饭店', '飯店', '咖啡', 'ร้านอาหาร', 'อาหาร', 'กาแฟ'],
    google: 'restaurant',
    yelp: 'restaurants',
    nameStems: ['Golden', 'Corner', 'Main Street', 'Little', 'Rustic', 'Urban', 'Harvest', 'Lone Star'],
    suffixes: ['Grill', 'Kitchen', 'Bistro', 'Cafe', 'Eatery', 'Tavern'],
    services: ['Dine-in', 'Takeout', 'Catering', 'Private events', 'Weekend brunch', 'Happy hour'],
    praise: ['the food was delicious', 'friendly staff', 'generous portions', 'great atmosphere', 'fast service', 'fair prices'],
    complaints: ['the food was cold', 'waited an hour for a table', 'the server was rude', 'overpriced for what you get', 'the order was wrong'],
  },
  {
    id: 'auto_repair',
    label: 'Auto repair',
    keywords: ['auto', 'automotive', 'mechanic', 'garage', 'tire', 'tires', 'transmission', 'brake', 'brakes', 'collision', 'body shop', 'car', 'taller mecanico', 'mecanico', 'llantera', 'автосервис', '自動車整備', '정비', '카센터', '汽车维修', '汽車維修'],
    google: 'car_repair',
    yelp: 'autorepair',
    nameStems: ['Precision', 'Honest', 'Main Street', 'Express', 'Certified', 'Pit Stop', 'Hometown', 'Eagle'],
    suffixes: ['Auto Repair', 'Automotive', 'Auto Care', 'Garage', 'Auto Service'],
    services: ['Oil changes', 'Brake repair', 'Engine diagnostics', 'Tire rotation', 'A/C repair', 'State inspections'],
    praise: ['honest diagnosis', 'fair price', 'done the same day', 'explained what was wrong', 'friendly mechanics', 'the car runs great now'],
    complaints: ['charged for work I did not approve', 'kept my car for a week', 'the problem came back', 'nobody called me back', 'rude service writer'],
  },
  {
    id: 'hair_salon',
    label: 'Hair salon',
    keywords: ['salon', 'hair', 'barber', 'barbershop', 'stylist', 'beauty', 'spa', 'nails', 'peluqueria', 'barberia', 'estetica', 'coiffure', 'парикмахерская', 'салон красоты', '美容室', '미용실', '헤어', '美发', '美髮', 'ร้านทำผม'],
    google: 'hair_salon',
    yelp: 'hair',
    nameStems: ['Studio', 'Luxe', 'Bella', 'Velvet', 'Urban', 'Golden', 'Mane', 'Serene'],
    suffixes: ['Salon', 'Hair Studio', 'Salon & Spa', 'Hair Co.', 'Beauty Bar'],
    services: ['Haircuts', 'Color and balayage', 'Blowouts', 'Keratin treatments', 'Bridal styling', 'Extensions'],
    praise: ['my stylist listened', 'love my new color', 'relaxing atmosphere', 'on time', 'great value', 'friendly staff'],
    complaints: ['the color was uneven', 'they double booked me', 'rushed haircut', 'overpriced', 'the stylist was late'],
  },
  {
    id: 'law_firm',
    label: 'Law firm',
    keywords: ['law', 'lawyer', 'lawyers', 'attorney', 'attorneys', 'legal', 'firm', 'esq', 'abogado', 'abogados', 'avocat', 'адвокат', '法律事務所', '법률', '변호사', '律师', '律師'],
    google: 'lawyer',
    yelp: 'lawyers',
    nameStems: ['Hill', 'Baker', 'Carter', 'Morgan', 'Reed', 'Walker', 'Ellis', 'Hayes'],
    suffixes: ['Law Firm', 'Law Group', '& Associates', 'Legal', 'Law Office'],
    services: ['Personal injury', 'Family law', 'Estate planning', 'Business law', 'Criminal defense', 'Free consultation'],
    praise: ['responsive and clear', 'won my case', 'kept me informed', 'fair fees', 'professional staff', 'took time to explain'],
    complaints: ['never returned my calls', 'billing was confusing', 'missed a deadline', 'felt like a number', 'slow to respond'],
  },
  {
    id: 'fitness',
    label: 'Gym',
    keywords: ['gym', 'fitness', 'crossfit', 'yoga', 'pilates', 'training', 'boxing', 'studio', 'gimnasio', 'фитнес', 'спортзал', 'ジム', '헬스', '피트니스', '健身'],
    google: 'gym',
    yelp: 'gyms',
    nameStems: ['Iron', 'Peak', 'Core', 'Elevate', 'Summit', 'Pulse', 'Forge', 'Vital'],
    suffixes: ['Fitness', 'Gym', 'Athletics', 'Training', 'Strength Co.'],
    services: ['Personal training', 'Group classes', 'Open gym', 'Nutrition coaching', 'Yoga', 'Kids programs'],
    praise: ['great coaches', 'clean equipment', 'welcoming community', 'flexible hours', 'good class variety', 'fair membership price'],
    complaints: ['hard to cancel the membership', 'crowded at peak hours', 'broken equipment', 'dirty locker room', 'pushy sales'],
  },
  {
    id: 'veterinarian',
    label: 'Veterinarian',
    keywords: ['vet', 'veterinary', 'veterinarian', 'animal', 'pet', 'pets', 'clinic', 'veterinaria', 'veterinario', 'mascotas', 'ветеринарная', 'ветклиника', '動物病院', '동물병원', '宠物医院', '寵物醫院'],
    google: 'veterinary_care',
    yelp: 'vet',
    nameStems: ['Companion', 'Paws', 'Oak', 'Family', 'Meadow', 'Trusted', 'Happy Tails', 'Cedar'],
    suffixes: ['Animal Hospital', 'Veterinary Clinic', 'Pet Clinic', 'Vet Care', 'Animal Clinic'],
    services: ['Wellness exams', 'Vaccinations', 'Dental care', 'Surgery', 'Emergency care', 'Boarding'],
    praise: ['gentle with my dog', 'explained the options', 'fair prices', 'caring staff', 'got us in quickly', 'followed up after surgery'],
    complaints: ['long wait with a sick pet', 'expensive', 'felt rushed', 'the front desk was rude', 'lost our records'],
  },
  {
    id: 'real_estate',
    label: 'Real estate agency',
    keywords: ['realty', 'real estate', 'realtor', 'realtors', 'homes', 'properties', 'property', 'bienes raices', 'inmobiliaria', 'недвижимость', '不動産', '부동산', '房地产', '房地產'],
    google: 'real_estate_agency',
    yelp: 'realestateagents',
    nameStems: ['Keystone', 'Heritage', 'Compass', 'Capital', 'Hometown', 'Prime', 'Legacy', 'Blue Door'],
    suffixes: ['Realty', 'Real Estate', 'Properties', 'Homes', 'Realty Group'],
    services: ['Buying', 'Selling', 'Relocation', 'Property management', 'Home valuation', 'First-time buyers'],
    praise: ['sold our home fast', 'knew the market', 'great negotiator', 'always available', 'patient with us', 'smooth closing'],
    complaints: ['hard to reach', 'pushed us to overpay', 'missed showings', 'poor communication', 'unprofessional'],
  },
  {
    id: 'hvac',
    label: 'HVAC contractor',
    keywords: ['hvac', 'heating', 'cooling', 'air conditioning', 'furnace', 'ac'],
    google: 'hvac_contractor',
    yelp: 'hvac',
    nameStems: ['Comfort', 'Polar', 'Reliable', 'Arctic', 'Allied', 'Precision', 'Hometown', 'Summit'],
    suffixes: ['Heating & Air', 'HVAC', 'Air Conditioning', 'Climate Control', 'Heating & Cooling'],
    services: ['A/C repair', 'Furnace repair', 'New system installation', 'Maintenance plans', 'Duct cleaning', 'Thermostats'],
    praise: ['fixed our A/C in the heat', 'honest advice', 'on time', 'fair price', 'clean and polite', 'explained the options'],
    complaints: ['no-show on the appointment', 'upsold a new unit', 'the A/C broke again', 'overcharged', 'slow to schedule'],
  },
];

export const FALLBACK_CATEGORY: Category = {
  id: 'local_business',
  label: 'Local business',
  keywords: [],
  google: 'store',
  yelp: 'localservices',
  nameStems: ['Main Street', 'Hometown', 'Premier', 'Capital', 'Summit', 'Liberty', 'Pioneer', 'Cornerstone'],
  suffixes: ['Services', 'Co.', 'Group', '& Sons', 'Solutions'],
  services: ['Consultations', 'Same-week appointments', 'Free estimates', 'Repairs', 'Installations', 'Maintenance'],
  praise: ['friendly staff', 'fair price', 'on time', 'great communication', 'quality work', 'would recommend'],
  complaints: ['slow to respond', 'overpriced', 'rude staff', 'the work had to be redone', 'hard to reach'],
};

export const categoryById = (id: string): Category => CATEGORIES.find((c) => c.id === id) ?? FALLBACK_CATEGORY;

/** Keyword hits per category in a text (folded, so "Café", "CAFE" and "cafe" are one word, in
 *  any script); the best category wins when it has at least `min` hits. */
export function inferCategory(text: string, min = 1): Category | null {
  const folded = fold(text);
  let best: { category: Category; hits: number } | null = null;
  for (const category of CATEGORIES) {
    let hits = 0;
    for (const k of category.keywords) hits += countPhrase(folded, k);
    if (hits >= min && (!best || hits > best.hits)) best = { category, hits };
  }
  return best?.category ?? null;
}

/** A provider's category string (Google type, Yelp alias or title) mapped to ours. */
export function categoryFromProvider(value: string | null | undefined): Category | null {
  if (!value) return null;
  const v = value.toLowerCase();
  return (
    CATEGORIES.find((c) => c.google === v || c.yelp === v || c.label.toLowerCase() === v) ??
    inferCategory(v.replace(/_/g, ' ')) ??
    // Yelp aliases run words together ("generaldentistry", "autorepair").
    CATEGORIES.find((c) => c.keywords.some((k) => k.length >= 4 && v.includes(k.replace(/ /g, '')))) ??
    null
  );
}
