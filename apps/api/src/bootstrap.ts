import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import express from 'express';
import { Logger } from 'nestjs-pino';
import {
  capInFlightPerCredential,
  collapseLeadingSlashes,
  documentErrorEnvelope,
  Environment,
  ErrorEnvelopeDto,
  followTraceContextOfTrustedProxies,
  FrameworkChatterAtDebug,
  loadPlatformConfig,
  openRequestScope,
  compressResponses,
  parseJsonBody,
  PrometheusMetrics,
  rejectHostileQuery,
  RateLimitedDto,
  timeRequests,
  traceRequests,
} from '@app/platform';
import { ApiModule, ApiModuleOptions } from './api.module';
import { LimitedExpressAdapter } from './connection-limits';

export const OPENAPI_JSON_PATH = 'api/v0/openapi.json';

export function buildOpenApiDocument(app: NestExpressApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('GPU Marketplace API')
    .setDescription(
      'Charges report, two-factor authentication, volume listings and autoscaling endpoint groups.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key or 2FA session key' })
    .build();
  return documentErrorEnvelope(
    SwaggerModule.createDocument(app, config, { extraModels: [ErrorEnvelopeDto, RateLimitedDto] }),
  );
}

/**
 * Builds the api exactly as `npm start` runs it; e2e tests call this too, so they exercise
 * the same middleware, guards, filters and OpenAPI wiring.
 */
export async function createApiApp(
  env: Environment = new Environment(),
  overrides: Omit<ApiModuleOptions, 'env'> = {},
): Promise<NestExpressApplication> {
  const server = express();
  server.disable('x-powered-by');
  // No ETag: no client of this api sends If-None-Match, and Express would hash every JSON
  // body to make one (docs/decisions.md "No ETag on API responses").
  server.set('etag', false);
  const config = loadPlatformConfig(env);
  // Before anything can answer: every response of a traced request says its trace id.
  traceRequests(server);
  // Who may name the client in X-Forwarded-For (TRUSTED_PROXIES): request.ip follows it.
  server.set('trust proxy', config.trustedProxies.length > 0 ? config.trustedProxies : false);
  // First: a flood of one credential is turned away before it costs anything else.
  server.use(capInFlightPerCredential(config.requestsInFlightPerKey));
  server.use(collapseLeadingSlashes);
  server.use(rejectHostileQuery);
  server.use(parseJsonBody);
  server.use(openRequestScope);
  server.use(compressResponses(config.compression));
  const app = await NestFactory.create<NestExpressApplication>(
    ApiModule.register({ ...overrides, env }),
    new LimitedExpressAdapter(server, config.http),
    {
      bodyParser: false,
      bufferLogs: true,
    },
  );
  app.useLogger(new FrameworkChatterAtDebug(app.get(Logger)));
  // Ahead of every route (Nest adds its routes at init): times each request once.
  app.use(timeRequests(app.get(PrometheusMetrics)));
  followTraceContextOfTrustedProxies(app.getHttpServer());
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
  });
  return app;
}
