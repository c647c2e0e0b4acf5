import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * JSON Schemas of the FedEx requests the local FedEx checks: Create Shipment, Validate Shipment, Cancel
 * Shipment and Find Locations. Written by us from FedEx's documentation of the Ship API and the Locations API (their OpenAPI
 * documents Shipment-Resource.json and Locations-Resource.json on developer.fedex.com, read 2026-11-29, and
 * their field descriptions): FedEx publishes those documents under its developer terms, with no licence that
 * allows copying them here, so nothing of them is vendored. Each object lists the properties FedEx documents
 * for it (a property FedEx does not know is a fault), their types, the documented enums, lengths and the
 * fields FedEx marks required. Where FedEx's own descriptions are stricter than its schema (a phone number of
 * 10 to 15 digits, a 9-digit account), the description is followed.
 */

const str = (extra: Record<string, unknown> = {}) => ({ type: 'string', ...extra });
const num = { type: 'number' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const list = (items: unknown, extra: Record<string, unknown> = {}) => ({ type: 'array', items, ...extra });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const money = obj({ amount: num, currency: str({ pattern: '^[A-Z]{3}$' }) });
const account = obj({ value: str({ pattern: '^[0-9]{9}$' }) }, ['value']);
const partyAddress = obj(
  {
    streetLines: list(str({ minLength: 1, maxLength: 35 }), { minItems: 1, maxItems: 3 }),
    city: str({ minLength: 1, maxLength: 35 }),
    stateOrProvinceCode: str({ maxLength: 2 }),
    postalCode: str({ maxLength: 10 }),
    countryCode: str({ pattern: '^[A-Z]{2}$' }),
    residential: bool,
  },
  ['streetLines', 'city', 'countryCode'],
);
const contact = obj(
  {
    personName: str({ maxLength: 70 }),
    emailAddress: str({ maxLength: 80 }),
    phoneExtension: str({ maxLength: 6 }),
    phoneNumber: str({ pattern: '^[0-9]{10,15}$' }),
    companyName: str({ maxLength: 35 }),
  },
  ['phoneNumber'],
);
const party = obj({ address: partyAddress, contact, tins: list({ type: 'object' }), deliveryInstructions: str() }, ['address', 'contact']);
const locationAddress = obj({
  streetLines: list(str({ maxLength: 35 })),
  city: str(),
  stateOrProvinceCode: str(),
  postalCode: str({ maxLength: 10 }),
  countryCode: str({ pattern: '^[A-Z]{2}$' }),
  residential: bool,
});
const weight = obj({ units: { enum: ['KG', 'LB'] }, value: { type: 'number', exclusiveMinimum: 0 } }, ['units', 'value']);
const customerReference = obj(
  {
    customerReferenceType: {
      enum: [
        'CUSTOMER_REFERENCE',
        'DEPARTMENT_NUMBER',
        'INVOICE_NUMBER',
        'P_O_NUMBER',
        'INTRACOUNTRY_REGULATORY_REFERENCE',
        'RMA_ASSOCIATION',
      ],
    },
    value: str({ minLength: 1, maxLength: 40 }),
  },
  ['customerReferenceType', 'value'],
);
const documentFormat = obj({
  provideInstructions: bool,
  optionsRequested: { type: 'object' },
  stockType: { enum: ['PAPER_LETTER'] },
  dispositions: list({ type: 'object' }),
  locale: str(),
  docType: { enum: ['PDF'] },
});
const payment = obj(
  {
    paymentType: { enum: ['SENDER', 'RECIPIENT', 'THIRD_PARTY', 'COLLECT'] },
    payor: obj(
      { responsibleParty: obj({ address: { type: 'object' }, contact: { type: 'object' }, accountNumber: account }, ['accountNumber']) },
      ['responsibleParty'],
    ),
  },
  ['paymentType'],
);

const commodity = obj(
  {
    unitPrice: money,
    additionalMeasures: list({ type: 'object' }),
    numberOfPieces: { type: 'integer', minimum: 0, maximum: 9999 },
    quantity: int,
    quantityUnits: str(),
    customsValue: money,
    countryOfManufacture: str({ pattern: '^[A-Z]{2}$' }),
    cIMarksAndNumbers: str(),
    harmonizedCode: str(),
    description: str({ minLength: 1, maxLength: 450 }),
    name: str(),
    weight: obj({ units: { enum: ['KG', 'LB'] }, value: num }, ['units', 'value']),
    exportLicenseNumber: str(),
    exportLicenseExpirationDate: str(),
    partNumber: str(),
    purpose: { enum: ['BUSINESS', 'CONSUMER'] },
    usmcaDetail: { type: 'object' },
  },
  ['description'],
);

const requestedShipment = obj(
  {
    shipDatestamp: str({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    totalDeclaredValue: money,
    shipper: party,
    recipients: list(party, { minItems: 1 }),
    soldTo: { type: 'object' },
    recipientLocationNumber: str(),
    pickupType: { enum: ['CONTACT_FEDEX_TO_SCHEDULE', 'DROPOFF_AT_FEDEX_LOCATION', 'USE_SCHEDULED_PICKUP'] },
    serviceType: str({ minLength: 1 }),
    packagingType: str({ minLength: 1 }),
    totalWeight: num,
    origin: { type: 'object' },
    shippingChargesPayment: payment,
    shipmentSpecialServices: obj({
      specialServiceTypes: list(str()),
      etdDetail: obj({
        attributes: list({ enum: ['POST_SHIPMENT_UPLOAD_REQUESTED'] }),
        attachedDocuments: list({ type: 'object' }),
        requestedDocumentTypes: list({
          enum: [
            'CERTIFICATE_OF_ORIGIN',
            'COMMERCIAL_INVOICE',
            'CUSTOM_PACKAGE_DOCUMENT',
            'CUSTOM_SHIPMENT_DOCUMENT',
            'PRO_FORMA_INVOICE',
            'USMCA_CERTIFICATION_OF_ORIGIN',
            'USMCA_COMMERCIAL_INVOICE_CERTIFICATION_OF_ORIGIN',
          ],
        }),
      }),
      returnShipmentDetail: obj(
        {
          returnEmailDetail: { type: 'object' },
          rma: obj({ reason: str() }),
          returnAssociationDetail: obj({ shipDatestamp: str(), trackingNumber: str() }, ['trackingNumber']),
          returnType: { enum: ['PENDING', 'PRINT_RETURN_LABEL'] },
        },
        ['returnType'],
      ),
      deliveryOnInvoiceAcceptanceDetail: { type: 'object' },
      internationalTrafficInArmsRegulationsDetail: { type: 'object' },
      pendingShipmentDetail: { type: 'object' },
      holdAtLocationDetail: obj(
        {
          locationId: str({ minLength: 1 }),
          locationContactAndAddress: obj({ contact: { type: 'object' }, address: locationAddress }),
          locationType: {
            enum: [
              'FEDEX_AUTHORIZED_SHIP_CENTER',
              'FEDEX_OFFICE',
              'FEDEX_SELF_SERVICE_LOCATION',
              'FEDEX_STAFFED',
              'RETAIL_ALLICANCE_LOCATION',
              'FEDEX_GROUND_TERMINAL',
              'FEDEX_ONSITE',
            ],
          },
        },
        ['locationId'],
      ),
      shipmentCODDetail: { type: 'object' },
      shipmentDryIceDetail: { type: 'object' },
      internationalControlledExportDetail: { type: 'object' },
      homeDeliveryPremiumDetail: { type: 'object' },
    }),
    emailNotificationDetail: { type: 'object' },
    expressFreightDetail: { type: 'object' },
    variableHandlingChargeDetail: { type: 'object' },
    customsClearanceDetail: obj(
      {
        regulatoryControls: list(str()),
        brokers: list({ type: 'object' }),
        commercialInvoice: obj({
          originatorName: str(),
          paymentTerms: str(),
          comments: list(str()),
          customerReferences: list(customerReference),
          taxesOrMiscellaneousCharge: money,
          taxesOrMiscellaneousChargeType: str(),
          freightCharge: money,
          packingCosts: money,
          handlingCosts: money,
          declarationStatement: str({ maxLength: 554 }),
          termsOfSale: str({ maxLength: 3 }),
          specialInstructions: str(),
          shipmentPurpose: { enum: ['GIFT', 'NOT_SOLD', 'PERSONAL_EFFECTS', 'REPAIR_AND_RETURN', 'SAMPLE', 'SOLD'] },
          emailNotificationDetail: { type: 'object' },
        }),
        freightOnValue: str(),
        dutiesPayment: payment,
        commodities: list(commodity, { minItems: 1, maxItems: 999 }),
        isDocumentOnly: bool,
        recipientCustomsId: { type: 'object' },
        customsOption: { type: 'object' },
        importerOfRecord: { type: 'object' },
        generatedDocumentLocale: str(),
        exportDetail: { type: 'object' },
        totalCustomsValue: money,
        partiesToTransactionAreRelated: bool,
        declarationStatementDetail: { type: 'object' },
        insuranceCharge: money,
      },
      ['commercialInvoice', 'commodities'],
    ),
    smartPostInfoDetail: { type: 'object' },
    blockInsightVisibility: bool,
    labelSpecification: obj(
      {
        labelFormatType: { enum: ['COMMON2D', 'LABEL_DATA_ONLY'] },
        labelOrder: { enum: ['SHIPPING_LABEL_FIRST', 'SHIPPING_LABEL_LAST'] },
        customerSpecifiedDetail: { type: 'object' },
        printedLabelOrigin: { type: 'object' },
        labelStockType: {
          enum: [
            'PAPER_4X6',
            'STOCK_4X675',
            'PAPER_4X675',
            'PAPER_4X8',
            'PAPER_4X9',
            'PAPER_7X475',
            'PAPER_85X11_BOTTOM_HALF_LABEL',
            'PAPER_85X11_TOP_HALF_LABEL',
            'PAPER_LETTER',
            'STOCK_4X675_LEADING_DOC_TAB',
            'STOCK_4X8',
            'STOCK_4X9_LEADING_DOC_TAB',
            'STOCK_4X6',
            'STOCK_4X675_TRAILING_DOC_TAB',
            'STOCK_4X9_TRAILING_DOC_TAB',
            'STOCK_4X9',
            'STOCK_4X85_TRAILING_DOC_TAB',
            'STOCK_4X105_TRAILING_DOC_TAB',
          ],
        },
        labelRotation: { enum: ['LEFT', 'RIGHT', 'UPSIDE_DOWN', 'NONE'] },
        imageType: { enum: ['ZPLII', 'EPL2', 'PDF', 'PNG'] },
        labelPrintingOrientation: { enum: ['BOTTOM_EDGE_OF_TEXT_FIRST', 'TOP_EDGE_OF_TEXT_FIRST'] },
        returnedDispositionDetail: str(),
        resolution: int,
      },
      ['labelStockType', 'imageType'],
    ),
    shippingDocumentSpecification: obj({
      generalAgencyAgreementDetail: { type: 'object' },
      returnInstructionsDetail: { type: 'object' },
      op900Detail: { type: 'object' },
      usmcaCertificationOfOriginDetail: { type: 'object' },
      usmcaCommercialInvoiceCertificationOfOriginDetail: { type: 'object' },
      shippingDocumentTypes: list({
        enum: [
          'CERTIFICATE_OF_ORIGIN',
          'COMMERCIAL_INVOICE',
          'CUSTOM_PACKAGE_DOCUMENT',
          'CUSTOM_SHIPMENT_DOCUMENT',
          'CUSTOMER_SPECIFIED_LABELS',
          'EXPORT_DECLARATION',
          'GENERAL_AGENCY_AGREEMENT',
          'LABEL',
          'USMCA_CERTIFICATION_OF_ORIGIN',
          'OP_900',
          'PENDING_SHIPMENT_EMAIL_NOTIFICATION',
          'PRO_FORMA_INVOICE',
          'RETURN_INSTRUCTIONS',
          'USMCA_COMMERCIAL_INVOICE_CERTIFICATION_OF_ORIGIN',
        ],
      }),
      certificateOfOrigin: { type: 'object' },
      commercialInvoiceDetail: obj({ customerImageUsages: list({ type: 'object' }), documentFormat }),
    }),
    rateRequestType: list({ enum: ['LIST', 'NONE', 'PREFERRED', 'ACCOUNT', 'INCENTIVE', 'RETAIL'] }),
    preferredCurrency: str(),
    totalPackageCount: { type: 'integer', minimum: 1 },
    masterTrackingId: { type: 'object' },
    requestedPackageLineItems: list(
      obj(
        {
          sequenceNumber: { type: 'integer', minimum: 1 },
          subPackagingType: str(),
          customerReferences: list(customerReference),
          declaredValue: money,
          weight,
          dimensions: obj(
            {
              length: { type: 'integer', minimum: 1, maximum: 999 },
              width: { type: 'integer', minimum: 1, maximum: 999 },
              height: { type: 'integer', minimum: 1, maximum: 999 },
              units: { enum: ['CM', 'IN'] },
            },
            ['length', 'width', 'height', 'units'],
          ),
          groupPackageCount: { type: 'integer', minimum: 1 },
          itemDescriptionForClearance: str(),
          contentRecord: list({ type: 'object' }),
          itemDescription: str({ maxLength: 50 }),
          variableHandlingChargeDetail: { type: 'object' },
          packageSpecialServices: { type: 'object' },
          trackingNumber: str(),
        },
        ['weight'],
      ),
      { minItems: 1 },
    ),
  },
  [
    'shipper',
    'recipients',
    'pickupType',
    'serviceType',
    'packagingType',
    'totalWeight',
    'shippingChargesPayment',
    'labelSpecification',
    'requestedPackageLineItems',
  ],
);

export const CREATE_SHIPMENT = obj(
  {
    mergeLabelDocOption: { enum: ['NONE', 'LABELS_AND_DOCS', 'LABELS_ONLY'] },
    requestedShipment,
    labelResponseOptions: { enum: ['URL_ONLY', 'LABEL'] },
    accountNumber: account,
    shipAction: { enum: ['CONFIRM', 'TRANSFER'] },
    processingOptionType: { enum: ['SYNCHRONOUS_ONLY', 'ALLOW_ASYNCHRONOUS'] },
    oneLabelAtATime: bool,
  },
  ['accountNumber', 'labelResponseOptions', 'requestedShipment'],
);

/** Validate Shipment: the shipment without what only Create Shipment takes (`RequestedShipmentVerify`). */
const SHIP_ONLY = [
  'expressFreightDetail',
  'totalPackageCount',
  'soldTo',
  'recipientLocationNumber',
  'totalDeclaredValue',
  'masterTrackingId',
];
export const VALIDATE_SHIPMENT = obj(
  {
    requestedShipment: {
      ...requestedShipment,
      properties: Object.fromEntries(Object.entries(requestedShipment.properties).filter(([name]) => !SHIP_ONLY.includes(name))),
    },
    accountNumber: account,
  },
  ['requestedShipment'],
);

export const CANCEL_SHIPMENT = obj(
  {
    accountNumber: account,
    emailShipment: bool,
    senderCountryCode: str({ pattern: '^[A-Z]{2}$' }),
    deletionControl: { enum: ['DELETE_ALL_PACKAGES'] },
    trackingNumber: str({ minLength: 1 }),
  },
  ['accountNumber', 'trackingNumber'],
);

export const FIND_LOCATIONS = obj(
  {
    locationsSummaryRequestControlParameters: obj({ distance: obj({ units: { enum: ['KM', 'MI'] }, value: num }), maxResults: int }),
    constraints: { type: 'object' },
    locationSearchCriterion: { enum: ['ADDRESS', 'GEOGRAPHIC_COORDINATES', 'PHONE_NUMBER'] },
    location: obj(
      {
        address: obj(
          {
            streetLines: list(str()),
            city: str(),
            stateOrProvinceCode: str(),
            postalCode: str(),
            countryCode: str({ minLength: 1, maxLength: 5 }),
            residential: bool,
            addressVerificationId: str(),
            addressClassification: str(),
            addressClassificationConfidence: str(),
          },
          ['countryCode'],
        ),
        longLat: obj({ latitude: str(), longitude: str() }),
      },
      ['address'],
    ),
    phoneNumber: str(),
    multipleMatchesAction: { enum: ['RETURN_ALL', 'RETURN_ERROR', 'RETURN_FIRST'] },
    sort: obj({
      criteria: { enum: ['DISTANCE', 'LATEST_EXPRESS_DROPOFF_TIME', 'LATEST_GROUND_DROPOFF_TIME', 'LOCATION_TYPE'] },
      order: { enum: ['ASCENDING', 'DESCENDING'] },
    }),
    trackingInfo: { type: 'object' },
    sameState: bool,
    sameCountry: bool,
    redirectToHoldType: { enum: ['FEDEX_EXPRESS', 'FEDEX_GROUND', 'FEDEX_GROUND_HOME_DELIVERY'] },
    locationAttrTypes: list(str()),
    locationCapabilities: list(
      obj({
        serviceType: str(),
        carrierCode: { enum: ['FDXE', 'FDXG'] },
        transferOfPossessionType: { enum: ['DROPOFF', 'HOLD_AT_LOCATION', 'REDIRECT_TO_HOLD_AT_LOCATION'] },
        serviceCategory: { enum: ['EXPRESS_FREIGHT', 'EXPRESS_PARCEL', 'GROUND_HOME_DELIVERY'] },
        daysOfWeek: list({ enum: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] }),
      }),
    ),
    packageAttributes: list({ type: 'object' }),
    locationTypes: list(str()),
    includeHoliday: bool,
    dropoffTime: str(),
    dropOffServiceType: str(),
    carrierCodes: list({ enum: ['FDXE', 'FDXG'] }),
    getCall: bool,
  },
  ['location'],
);

const ajv = new Ajv({ allErrors: true, strict: false });
const validators: Record<string, ValidateFunction> = {};

export type FedexSchema = 'create-shipment' | 'validate-shipment' | 'cancel-shipment' | 'find-locations';

const SCHEMAS: Record<FedexSchema, object> = {
  'create-shipment': CREATE_SHIPMENT,
  'validate-shipment': VALIDATE_SHIPMENT,
  'cancel-shipment': CANCEL_SHIPMENT,
  'find-locations': FIND_LOCATIONS,
};

/** What the schema finds wrong with a body (`path: message`), none when it is valid. */
export function schemaProblems(schema: FedexSchema, body: unknown): string[] {
  validators[schema] ??= ajv.compile(SCHEMAS[schema]);
  const validate = validators[schema];
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e: ErrorObject) => `${e.instancePath || '/'}: ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}
