/** German, addressing the recipient with "Sie". */
export const de: Readonly<Record<string, string>> = {
  'tracking_page.skip_link': 'Zum Inhalt springen',
  'tracking_page.page_title': 'Sendungsverfolgung',
  'tracking_page.heading': 'Ihr Paket',
  'tracking_page.tracking_number': 'Sendungsnummer',
  'tracking_page.carrier': 'Paketdienst',
  'tracking_page.current_status': 'Aktueller Status',
  'tracking_page.progress_label': 'Fortschritt der Zustellung',
  'tracking_page.step_done': 'abgeschlossen',
  'tracking_page.step_current': 'aktueller Schritt',
  'tracking_page.step_upcoming': 'noch nicht erreicht',
  'tracking_page.phase.info_received': 'Sendungsdaten übermittelt',
  'tracking_page.phase.in_transit': 'Unterwegs',
  'tracking_page.phase.out_for_delivery': 'In Zustellung',
  'tracking_page.phase.failed_attempt': 'Zustellversuch erfolglos',
  'tracking_page.phase.available_for_pickup': 'Abholbereit',
  'tracking_page.phase.delivered': 'Zugestellt',
  'tracking_page.phase.exception': 'Problem bei der Zustellung',
  'tracking_page.phase.return_to_sender': 'Rücksendung an den Absender',
  'tracking_page.no_information': 'Warten auf die erste Meldung des Paketdienstes',
  'tracking_page.expected_delivery': 'Voraussichtliche Zustellung',
  'tracking_page.expected_on': '{date}',
  'tracking_page.expected_between': '{from} – {to}',
  'tracking_page.timeline': 'Sendungsverlauf',
  'tracking_page.no_events': 'Noch keine Sendungsereignisse. Neuigkeiten erscheinen hier, sobald der Paketdienst sie meldet.',
  'tracking_page.notice.exception': 'Der Paketdienst hat ein Problem mit diesem Paket gemeldet. Es kann später ankommen als erwartet.',
  'tracking_page.notice.return_to_sender': 'Dieses Paket ist auf dem Rückweg zum Absender.',
  'tracking_page.notice.failed_attempt':
    'Der Paketdienst konnte das Paket nicht zustellen und versucht es erneut oder hinterlässt eine Nachricht, wie es weitergeht.',
  'tracking_page.notice.available_for_pickup': 'Das Paket liegt an einer Abholstelle für Sie bereit.',
  'tracking_page.not_found_title': 'Sendungsverfolgung nicht gefunden',
  'tracking_page.not_found_text': 'Zu diesem Link gibt es kein Paket. Bitte prüfen Sie den Link in Ihrer Versandbenachrichtigung.',
  'tracking_page.footer': 'Zeiten werden, soweit bekannt, in der Ortszeit des jeweiligen Ereignisses angezeigt.',

  'notification.info_received.subject': 'Ihr Paket von {merchant} wird vorbereitet',
  'notification.info_received.heading': 'Ihr Paket wird vorbereitet',
  'notification.info_received.body':
    'Ihr Paket von {merchant} wird gerade vorbereitet und in Kürze an den Paketdienst übergeben. Sie können die Sendung jederzeit online verfolgen.',
  'notification.info_received.sms': '{merchant}: Ihr Paket wird für den Versand vorbereitet. Sendungsverfolgung: {url}',

  'notification.in_transit.subject': 'Ihr Paket von {merchant} ist unterwegs',
  'notification.in_transit.heading': 'Ihr Paket ist unterwegs',
  'notification.in_transit.body':
    'Gute Nachrichten: Ihr Paket von {merchant} ist auf dem Weg zu Ihnen. Sie können die Sendung jederzeit online verfolgen.',
  'notification.in_transit.sms': '{merchant}: Ihr Paket ist unterwegs. Sendungsverfolgung: {url}',

  'notification.out_for_delivery.subject': 'Ihr Paket von {merchant} kommt heute',
  'notification.out_for_delivery.heading': 'Heute in Zustellung',
  'notification.out_for_delivery.body':
    'Ihr Paket von {merchant} ist in Zustellung und kommt voraussichtlich heute bei Ihnen an. Bitte sorgen Sie dafür, dass jemand es entgegennehmen kann.',
  'notification.out_for_delivery.sms': '{merchant}: Ihr Paket ist in Zustellung und kommt heute. Sendungsverfolgung: {url}',

  'notification.available_for_pickup.subject': 'Ihr Paket von {merchant} ist abholbereit',
  'notification.available_for_pickup.heading': 'Bereit zur Abholung',
  'notification.available_for_pickup.body':
    'Ihr Paket von {merchant} liegt an einer Abholstelle für Sie bereit. Bitte holen Sie es bald ab, denn Pakete werden dort nur begrenzte Zeit aufbewahrt.',
  'notification.available_for_pickup.sms': '{merchant}: Ihr Paket ist abholbereit. Bitte holen Sie es bald ab. Details: {url}',

  'notification.failed_attempt.subject': 'Zustellversuch für Ihr Paket von {merchant}',
  'notification.failed_attempt.heading': 'Ihr Paket konnte nicht zugestellt werden',
  'notification.failed_attempt.body':
    'Der Paketdienst konnte Ihnen Ihr Paket von {merchant} leider nicht übergeben. Er versucht es erneut oder hinterlässt eine Nachricht, wie es weitergeht.',
  'notification.failed_attempt.sms': '{merchant}: Ihr Paket konnte nicht zugestellt werden. So geht es weiter: {url}',

  'notification.exception.subject': 'Neuigkeiten zu Ihrem Paket von {merchant}',
  'notification.exception.heading': 'Problem bei der Zustellung',
  'notification.exception.body':
    'Der Paketdienst hat ein Problem mit Ihrem Paket von {merchant} gemeldet. Es kann daher später ankommen als erwartet. Den aktuellen Stand finden Sie in der Sendungsverfolgung.',
  'notification.exception.sms': '{merchant}: Der Paketdienst meldet ein Problem mit Ihrem Paket. Details: {url}',

  'notification.delivered.subject': 'Ihr Paket von {merchant} wurde zugestellt',
  'notification.delivered.heading': 'Ihr Paket ist angekommen',
  'notification.delivered.body': 'Ihr Paket von {merchant} wurde zugestellt. Viel Freude mit Ihrer Bestellung!',
  'notification.delivered.sms': '{merchant}: Ihr Paket wurde zugestellt. Viel Freude damit! Details: {url}',

  'notification.return_to_sender.subject': 'Ihr Paket von {merchant} geht zurück an den Absender',
  'notification.return_to_sender.heading': 'Ihr Paket wird zurückgesendet',
  'notification.return_to_sender.body':
    'Ihr Paket von {merchant} ist auf dem Rückweg zum Absender. Bei Fragen wenden Sie sich bitte an {merchant}.',
  'notification.return_to_sender.sms': '{merchant}: Ihr Paket wird an den Absender zurückgesendet. Details: {url}',

  'notification.return_requested.subject': 'Wir haben Ihre Retourenanfrage {returnId} erhalten',
  'notification.return_requested.heading': 'Retoure angemeldet',
  'notification.return_requested.body':
    '{merchant} hat Ihre Retourenanfrage {returnId} erhalten und prüft sie in Kürze. Sie bekommen Bescheid, sobald darüber entschieden ist.',
  'notification.return_requested.sms': '{merchant}: Wir haben Ihre Retourenanfrage {returnId} erhalten. Details: {url}',

  'notification.return_approved.subject': 'Ihre Retoure {returnId} wurde genehmigt',
  'notification.return_approved.heading': 'Retoure genehmigt',
  'notification.return_approved.body': '{merchant} hat Ihre Retoure {returnId} genehmigt. Sie können die Artikel jetzt zurücksenden.',
  'notification.return_approved.sms': '{merchant}: Ihre Retoure {returnId} wurde genehmigt. Details: {url}',
  'notification.return_approved.sms_label': '{merchant}: Ihre Retoure {returnId} wurde genehmigt. Ihr Retourenetikett: {url}',
  'notification.return_approved.label':
    'Ihr Retourenetikett liegt bereit: Drucken Sie es aus oder zeigen Sie den QR-Code in der Annahmestelle vor, auf der Seite Ihrer Retoure: {url}',

  'notification.return_rejected.subject': 'Ihre Retoure {returnId} konnte nicht angenommen werden',
  'notification.return_rejected.heading': 'Retoure nicht angenommen',
  'notification.return_rejected.body':
    '{merchant} hat Ihre Retoure {returnId} geprüft und kann sie leider nicht annehmen. Grund: {rejectReason}\n\nBei Fragen wenden Sie sich bitte an {merchant}.',
  'notification.return_rejected.sms': '{merchant}: Ihre Retoure {returnId} konnte leider nicht angenommen werden. Details: {url}',

  'notification.return_received.subject': '{merchant} hat Ihre Retoure {returnId} erhalten',
  'notification.return_received.heading': 'Retoure eingegangen',
  'notification.return_received.body': '{merchant} hat Ihre Retoure {returnId} erhalten. Sie bekommen Bescheid, sobald sie bearbeitet ist.',
  'notification.return_received.sms': '{merchant}: Wir haben Ihre Retoure {returnId} erhalten. Details: {url}',

  'notification.refund_issued.subject': 'Die Erstattung für Ihre Retoure {returnId} ist veranlasst',
  'notification.refund_issued.heading': 'Erstattung veranlasst',
  'notification.refund_issued.body':
    '{merchant} hat die Erstattung für Ihre Retoure {returnId} veranlasst. Je nach Zahlungsart kann es einige Tage dauern, bis sie bei Ihnen ankommt.',
  'notification.refund_issued.sms': '{merchant}: Die Erstattung für Ihre Retoure {returnId} ist veranlasst. Details: {url}',
  'notification.refund_issued.amount': 'Erstatteter Betrag:',

  'notification.common.track_button': 'Paket verfolgen',
  'notification.common.return_button': 'Retoure ansehen',
  'notification.common.tracking_number': 'Sendungsnummer',
  'notification.common.carrier': 'Paketdienst',
  'notification.common.expected_delivery': 'Voraussichtliche Zustellung',
  'notification.common.pickup_point': 'Abholstelle',
  'notification.common.opening_hours': 'Öffnungszeiten',
  'notification.common.unsubscribe': 'Abbestellen',
  'notification.common.footer': 'Sie erhalten diese Nachricht, weil {merchant} Sie über den Stand Ihrer Bestellung informiert.',

  'notification.unsubscribe.title': 'Versandbenachrichtigungen abbestellen',
  'notification.unsubscribe.confirm_button': 'Abbestellen',
  'notification.unsubscribe.done': 'Sie haben die Benachrichtigungen abbestellt und erhalten sie nicht mehr.',
  'notification.unsubscribe.all_from_merchant': 'Keine Benachrichtigungen mehr von {merchant}',
  'notification.unsubscribe.invalid': 'Dieser Abmeldelink ist ungültig oder abgelaufen.',
};
