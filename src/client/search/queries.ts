/** The search dialog's search, through the one door (server when signed in and online, else the device). */
export { type SearchHit, useSearchItems as useSearch } from '../app/liveData';
