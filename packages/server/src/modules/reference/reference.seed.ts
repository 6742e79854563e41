/** Reference data every install starts with; super-admins may add more. */
export const SEED_BRANDS = ['Alpina', 'Borealis', 'Cortina'];
export const SEED_LOCALES = [
  { language: 'en', country: 'GB', name: 'English (United Kingdom)' },
  { language: 'en', country: 'US', name: 'English (United States)' },
  { language: 'fr', country: 'FR', name: 'French (France)' },
  { language: 'fr', country: 'BE', name: 'French (Belgium)' },
  { language: 'nl', country: 'BE', name: 'Dutch (Belgium)' },
  { language: 'de', country: 'DE', name: 'German (Germany)' },
  { language: 'es', country: 'ES', name: 'Spanish (Spain)' },
  { language: 'it', country: 'IT', name: 'Italian (Italy)' },
];
export const SEED_PRODUCT_LINES = ['Passenger cars', 'Light commercial', 'Motorcycles'];
export const SEED_DATAKINDS = [
  { name: 'dealer', isDealer: true },
  { name: 'product', isDealer: false },
  { name: 'price', isDealer: false },
  { name: 'stock', isDealer: false },
];
