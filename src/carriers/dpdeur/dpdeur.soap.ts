import { listOf, objectOf, parseDpdXml, soapBodyOf, textOf } from './dpdeur.payload.js';

/**
 * The SOAP 1.1 requests of the DPD Web Services, written as text, and the faults DPD answers with. The element
 * names and namespaces are those of DPD's WSDLs (LoginService, Authentication 2.0, ParcelLifeCycleService 2.0):
 * the `authentication` header and the operation element are qualified, their children are not.
 */

const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const AUTHENTICATION_NS = 'http://dpd.com/common/service/types/Authentication/2.0';
const PARCEL_LIFE_CYCLE_NS = 'http://dpd.com/common/service/types/ParcelLifeCycleService/2.0';

/** The SOAPAction of `getTrackingData`, as DPD's service pages give it. */
export const TRACKING_ACTION = 'http://dpd.com/common/service/ParcelLifeCycleService/2.0/getTrackingData';

/** The namespace of a LoginService version (`2.0` at DPD Germany, `2.1` at DPD NL and Belux). */
export function loginNamespace(version: string): string {
  return `http://dpd.com/common/service/types/LoginService/${version}`;
}

/** The SOAPAction of `getAuth` for a LoginService version. */
export function loginAction(version: string): string {
  return `http://dpd.com/common/service/LoginService/${version}/getAuth`;
}

/** Text escaped for an XML element's content. */
export function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** LoginService `getAuth`: the delisId and password for a token. */
export function loginEnvelope(request: { version: string; delisId: string; password: string; language: string }): string {
  return [
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:ns="${loginNamespace(request.version)}">`,
    '<soapenv:Header/>',
    '<soapenv:Body><ns:getAuth>',
    `<delisId>${xmlText(request.delisId)}</delisId>`,
    `<password>${xmlText(request.password)}</password>`,
    `<messageLanguage>${xmlText(request.language)}</messageLanguage>`,
    '</ns:getAuth></soapenv:Body>',
    '</soapenv:Envelope>',
  ].join('');
}

/**
 * The text of one element of a request above, as written (`delisId`, `authToken`, `parcelLabelNumber`…): what
 * DPD's stand-ins in the tests and the benchmark read of the adapter's requests. Null when it has none.
 */
export function requestElement(envelope: string, name: string): string | null {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(envelope)?.[1] ?? null;
}

/** ParcelLifeCycleService `getTrackingData` for one parcel label number, with the session token in the header. */
export function trackingEnvelope(request: { delisId: string; authToken: string; language: string; parcelLabelNumber: string }): string {
  return [
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:ns="${AUTHENTICATION_NS}" xmlns:ns1="${PARCEL_LIFE_CYCLE_NS}">`,
    '<soapenv:Header><ns:authentication>',
    `<delisId>${xmlText(request.delisId)}</delisId>`,
    `<authToken>${xmlText(request.authToken)}</authToken>`,
    `<messageLanguage>${xmlText(request.language)}</messageLanguage>`,
    '</ns:authentication></soapenv:Header>',
    '<soapenv:Body><ns1:getTrackingData>',
    `<parcelLabelNumber>${xmlText(request.parcelLabelNumber)}</parcelLabelNumber>`,
    '</ns1:getTrackingData></soapenv:Body>',
    '</soapenv:Envelope>',
  ].join('');
}

/** A SOAP fault, read: the SOAP fault code and text, and DPD's own error in its `detail`. */
export interface DpdFault {
  /** `soap:Client`, `soap:Server`, … without its prefix (`Client`, `Server`). */
  faultcode: string | null;
  faultstring: string | null;
  /** DPD's code (`LOGIN_5`, `DELICOM_ERR_AUTHENTICATION`, a `faults.faultCode`), when the detail has one. */
  code: string | null;
  message: string | null;
  /** The detail is an `authenticationFault`: the token (or the login) was refused. */
  authentication: boolean;
}

/** The fault of a parsed answer, or null when its body holds none. */
export function faultOf(root: Record<string, unknown> | null): DpdFault | null {
  const fault = objectOf(soapBodyOf(root)?.Fault);
  if (!fault) return null;
  const detail = objectOf(fault.detail) ?? objectOf(fault.Detail);
  const authentication = listOf(detail?.authenticationFault)[0] ?? null;
  const other = listOf(detail?.faults)[0] ?? null;
  const faultcode = textOf(fault.faultcode);
  return {
    faultcode: faultcode ? (faultcode.split(':').pop() ?? faultcode) : null,
    faultstring: textOf(fault.faultstring),
    code: textOf(authentication?.errorCode) ?? textOf(other?.faultCode),
    message: textOf(authentication?.errorMessage) ?? textOf(other?.message),
    authentication: authentication !== null,
  };
}

/** The fault of an answer's text, or null when it is none (or not XML). */
export function faultOfText(text: string): DpdFault | null {
  if (!text.includes('Fault')) return null;
  return faultOf(parseDpdXml(text));
}

/** A fault the adapter reads itself rather than as a server error: a refused token or login, or a refused request. */
export function isRefusal(fault: DpdFault | null): boolean {
  return fault !== null && (fault.authentication || fault.faultcode === 'Client');
}

/** A fault as one short line for messages (`LOGIN_5: The authtoken is invalid`). */
export function faultText(fault: DpdFault): string {
  const own = [fault.code, fault.message].filter(Boolean).join(': ');
  return (own || fault.faultstring || fault.faultcode || 'SOAP fault').replace(/\s+/g, ' ').slice(0, 200);
}
