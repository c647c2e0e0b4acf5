/** Spanish, addressing the recipient with "usted". */
export const es: Readonly<Record<string, string>> = {
  'tracking_page.skip_link': 'Ir al contenido',
  'tracking_page.page_title': 'Seguimiento de su paquete',
  'tracking_page.heading': 'Su paquete',
  'tracking_page.tracking_number': 'Número de seguimiento',
  'tracking_page.carrier': 'Transportista',
  'tracking_page.current_status': 'Estado actual',
  'tracking_page.progress_label': 'Progreso de la entrega',
  'tracking_page.step_done': 'completado',
  'tracking_page.step_current': 'paso actual',
  'tracking_page.step_upcoming': 'aún no alcanzado',
  'tracking_page.phase.info_received': 'Información recibida',
  'tracking_page.phase.in_transit': 'En tránsito',
  'tracking_page.phase.out_for_delivery': 'En reparto',
  'tracking_page.phase.failed_attempt': 'Intento de entrega fallido',
  'tracking_page.phase.available_for_pickup': 'Listo para recoger',
  'tracking_page.phase.delivered': 'Entregado',
  'tracking_page.phase.exception': 'Incidencia en la entrega',
  'tracking_page.phase.return_to_sender': 'En devolución al remitente',
  'tracking_page.no_information': 'A la espera de la primera actualización del transportista',
  'tracking_page.expected_delivery': 'Entrega prevista',
  'tracking_page.expected_on': '{date}',
  'tracking_page.expected_between': '{from} – {to}',
  'tracking_page.timeline': 'Historial de seguimiento',
  'tracking_page.no_events':
    'Todavía no hay eventos de seguimiento. Las novedades aparecerán aquí en cuanto el transportista las comunique.',
  'tracking_page.notice.exception':
    'El transportista ha informado de una incidencia con este paquete. Es posible que llegue más tarde de lo previsto.',
  'tracking_page.notice.return_to_sender': 'Este paquete está de camino de vuelta al remitente.',
  'tracking_page.notice.failed_attempt':
    'El transportista no ha podido entregar el paquete y lo volverá a intentar o le dejará instrucciones.',
  'tracking_page.notice.available_for_pickup': 'El paquete le espera en un punto de recogida.',
  'tracking_page.not_found_title': 'Página de seguimiento no encontrada',
  'tracking_page.not_found_text': 'No hay ningún paquete asociado a este enlace. Compruebe el enlace de su aviso de envío.',
  'tracking_page.footer': 'Las horas se muestran en la hora local de cada evento, cuando se conoce.',

  'notification.info_received.subject': 'Su paquete de {merchant} se está preparando',
  'notification.info_received.heading': 'Su paquete se está preparando',
  'notification.info_received.body':
    'Su paquete de {merchant} se está preparando y pronto se entregará al transportista. Puede seguir el envío en línea en cualquier momento.',
  'notification.info_received.sms': '{merchant}: su paquete se está preparando para el envío. Seguimiento: {url}',

  'notification.in_transit.subject': 'Su paquete de {merchant} está en camino',
  'notification.in_transit.heading': 'Su paquete está en camino',
  'notification.in_transit.body':
    'Buenas noticias: su paquete de {merchant} va de camino hacia usted. Puede seguir el envío en línea en cualquier momento.',
  'notification.in_transit.sms': '{merchant}: su paquete está en camino. Seguimiento: {url}',

  'notification.out_for_delivery.subject': 'Su paquete de {merchant} llega hoy',
  'notification.out_for_delivery.heading': 'En reparto hoy',
  'notification.out_for_delivery.body':
    'Su paquete de {merchant} está en reparto y debería llegar hoy. Asegúrese de que alguien pueda recibirlo.',
  'notification.out_for_delivery.sms': '{merchant}: su paquete está en reparto y llega hoy. Seguimiento: {url}',

  'notification.available_for_pickup.subject': 'Su paquete de {merchant} está listo para recoger',
  'notification.available_for_pickup.heading': 'Listo para recoger',
  'notification.available_for_pickup.body':
    'Su paquete de {merchant} le espera en un punto de recogida. Recójalo pronto: los paquetes solo se guardan allí durante un tiempo limitado.',
  'notification.available_for_pickup.sms': '{merchant}: su paquete está listo para recoger. Recójalo pronto. Detalles: {url}',

  'notification.failed_attempt.subject': 'Intento de entrega de su paquete de {merchant}',
  'notification.failed_attempt.heading': 'No se ha podido entregar su paquete',
  'notification.failed_attempt.body':
    'El transportista no ha podido entregarle su paquete de {merchant}. Lo volverá a intentar o le dejará instrucciones sobre los próximos pasos.',
  'notification.failed_attempt.sms': '{merchant}: no se ha podido entregar su paquete. Próximos pasos: {url}',

  'notification.exception.subject': 'Novedades sobre su paquete de {merchant}',
  'notification.exception.heading': 'Incidencia en la entrega',
  'notification.exception.body':
    'El transportista ha informado de una incidencia con su paquete de {merchant}, por lo que podría llegar más tarde de lo previsto. Consulte el estado más reciente en la página de seguimiento.',
  'notification.exception.sms': '{merchant}: el transportista informa de una incidencia con su paquete. Detalles: {url}',

  'notification.delivered.subject': 'Su paquete de {merchant} ha sido entregado',
  'notification.delivered.heading': 'Su paquete ha llegado',
  'notification.delivered.body': 'Su paquete de {merchant} ha sido entregado. ¡Que disfrute de su pedido!',
  'notification.delivered.sms': '{merchant}: su paquete ha sido entregado. ¡Que lo disfrute! Detalles: {url}',

  'notification.return_to_sender.subject': 'Su paquete de {merchant} vuelve al remitente',
  'notification.return_to_sender.heading': 'Su paquete vuelve al remitente',
  'notification.return_to_sender.body':
    'Su paquete de {merchant} está de camino de vuelta al remitente. Si tiene alguna pregunta, póngase en contacto con {merchant}.',
  'notification.return_to_sender.sms': '{merchant}: su paquete vuelve al remitente. Detalles: {url}',

  'notification.return_requested.subject': 'Hemos recibido su solicitud de devolución {returnId}',
  'notification.return_requested.heading': 'Solicitud de devolución recibida',
  'notification.return_requested.body':
    '{merchant} ha recibido su solicitud de devolución {returnId} y la revisará en breve. Recibirá un mensaje en cuanto se haya tomado una decisión.',
  'notification.return_requested.sms': '{merchant}: hemos recibido su solicitud de devolución {returnId}. Detalles: {url}',

  'notification.return_approved.subject': 'Su devolución {returnId} ha sido aprobada',
  'notification.return_approved.heading': 'Devolución aprobada',
  'notification.return_approved.body': '{merchant} ha aprobado su devolución {returnId}. Ya puede enviar los artículos de vuelta.',
  'notification.return_approved.sms': '{merchant}: su devolución {returnId} ha sido aprobada. Detalles: {url}',
  'notification.return_approved.sms_label': '{merchant}: su devolución {returnId} ha sido aprobada. Su etiqueta de devolución: {url}',
  'notification.return_approved.label':
    'Su etiqueta de devolución está lista: imprímala, o muestre su código QR en el punto de entrega, desde la página de su devolución: {url}',

  'notification.return_rejected.subject': 'Su devolución {returnId} no ha sido aceptada',
  'notification.return_rejected.heading': 'Devolución no aceptada',
  'notification.return_rejected.body':
    '{merchant} ha revisado su devolución {returnId} y lamentablemente no puede aceptarla. Motivo: {rejectReason}\n\nSi tiene alguna pregunta, póngase en contacto con {merchant}.',
  'notification.return_rejected.sms': '{merchant}: su devolución {returnId} no ha sido aceptada. Detalles: {url}',

  'notification.return_received.subject': '{merchant} ha recibido su devolución {returnId}',
  'notification.return_received.heading': 'Devolución recibida',
  'notification.return_received.body': '{merchant} ha recibido su devolución {returnId}. Recibirá un mensaje en cuanto se haya tramitado.',
  'notification.return_received.sms': '{merchant}: hemos recibido su devolución {returnId}. Detalles: {url}',

  'notification.refund_issued.subject': 'Se ha emitido el reembolso de su devolución {returnId}',
  'notification.refund_issued.heading': 'Reembolso emitido',
  'notification.refund_issued.body':
    '{merchant} ha emitido el reembolso de su devolución {returnId}. Según su forma de pago, puede tardar unos días en llegarle.',
  'notification.refund_issued.sms': '{merchant}: se ha emitido el reembolso de su devolución {returnId}. Detalles: {url}',
  'notification.refund_issued.amount': 'Importe reembolsado:',

  'notification.common.track_button': 'Seguir mi paquete',
  'notification.common.return_button': 'Ver mi devolución',
  'notification.common.tracking_number': 'Número de seguimiento',
  'notification.common.carrier': 'Transportista',
  'notification.common.expected_delivery': 'Entrega prevista',
  'notification.common.pickup_point': 'Punto de recogida',
  'notification.common.opening_hours': 'Horario de apertura',
  'notification.common.unsubscribe': 'Darse de baja',
  'notification.common.footer': 'Recibe este mensaje porque {merchant} le mantiene informado sobre su pedido.',

  'notification.unsubscribe.title': 'Darse de baja de los avisos de entrega',
  'notification.unsubscribe.confirm_button': 'Darme de baja',
  'notification.unsubscribe.done': 'Se ha dado de baja y ya no recibirá estos avisos.',
  'notification.unsubscribe.all_from_merchant': 'Dejar de recibir todos los avisos de {merchant}',
  'notification.unsubscribe.invalid': 'Este enlace para darse de baja no es válido o ha caducado.',
};
