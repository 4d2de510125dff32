export { SpendGuardsModule } from './spend-guards.module';
