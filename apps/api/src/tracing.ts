// The first import of main.ts: the OpenTelemetry SDK (when an exporter is configured) must
// patch what it instruments before anything loads it (libs/platform/src/tracing.ts).
import { startTracing } from '@app/platform/tracing';

startTracing('gpu-marketplace-api');
