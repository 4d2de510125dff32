export { AutoscalingModule } from './autoscaling.module';
