export { bootAnswer, bootModules, endBoot, resetBootForTests } from './boot-data';
