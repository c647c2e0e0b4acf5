import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CarrierDetectionService } from '../../domain/carrier-detection.service.js';
import { CarrierDetection, CarrierDetectQuery } from '../../schemas/carrier-detect.schemas.js';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { callerOf } from '../auth.js';

export const carrierDetectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const detection = new CarrierDetectionService(app.context.repos);
  app.get(
    '/v5/carriers/detect/',
    {
      schema: {
        tags: ['Carrier configurations'],
        summary: 'The carriers a tracking number can belong to, read from its format and check digit',
        description:
          'No carrier is asked: the answer comes from the number alone (docs/carriers/detection.md). Each candidate says ' +
          'whether the account has configured that carrier. A shipment created with this number and no carrier_reference is ' +
          'tracked by the one configuration of a high or medium candidate, when there is exactly one.',
        security: bearerSecurity,
        querystring: CarrierDetectQuery,
        response: { 200: Envelope(CarrierDetection), ...merchantErrors },
      },
    },
    async (request) => ({
      api_response: '200',
      data: await detection.detect(callerOf(request).accountId, request.query.tracking_number),
    }),
  );
};
