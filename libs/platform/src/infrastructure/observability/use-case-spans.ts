import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { tracingHooks } from './tracing-state';

type UseCase = { execute: (...args: unknown[]) => unknown };

/**
 * With tracing on, every use case (a provider whose class name ends in `UseCase`, with its
 * one `execute`) runs in a span named after its class, in the api and the worker alike, so
 * a trace shows which operation its SQL and Redis calls belong to. The contexts declare
 * nothing for it; its arguments are never recorded (they hold codes and secrets).
 */
@Injectable()
export class UseCaseSpans implements OnModuleInit {
  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const tracing = tracingHooks();
    if (!tracing) return;
    const seen = new Set<object>();
    for (const { instance } of this.discovery.getProviders()) {
      if (typeof instance !== 'object' || instance === null || seen.has(instance)) continue;
      seen.add(instance);
      const name = (instance as object).constructor?.name ?? '';
      const useCase = instance as Partial<UseCase>;
      if (!name.endsWith('UseCase') || typeof useCase.execute !== 'function') continue;
      const execute = useCase.execute.bind(instance);
      const attributes = { 'code.function.name': `${name}.execute` };
      useCase.execute = (...args: unknown[]) =>
        tracing.around(name, attributes, () => execute(...args));
    }
  }
}
