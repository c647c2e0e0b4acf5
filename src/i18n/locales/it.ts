/** Italian, addressing the recipient with "Lei" (lower-case courtesy forms, as in current e-commerce use). */
export const it: Readonly<Record<string, string>> = {
  'tracking_page.skip_link': 'Vai al contenuto',
  'tracking_page.page_title': 'Tracciamento della spedizione',
  'tracking_page.heading': 'Il suo pacco',
  'tracking_page.tracking_number': 'Numero di tracciamento',
  'tracking_page.carrier': 'Corriere',
  'tracking_page.current_status': 'Stato attuale',
  'tracking_page.progress_label': 'Avanzamento della consegna',
  'tracking_page.step_done': 'fase completata',
  'tracking_page.step_current': 'fase attuale',
  'tracking_page.step_upcoming': 'fase non ancora raggiunta',
  'tracking_page.phase.info_received': 'Informazioni ricevute',
  'tracking_page.phase.in_transit': 'In transito',
  'tracking_page.phase.out_for_delivery': 'In consegna',
  'tracking_page.phase.failed_attempt': 'Tentativo di consegna non riuscito',
  'tracking_page.phase.available_for_pickup': 'Pronto per il ritiro',
  'tracking_page.phase.delivered': 'Consegnato',
  'tracking_page.phase.exception': 'Problema con la consegna',
  'tracking_page.phase.return_to_sender': 'In restituzione al mittente',
  'tracking_page.no_information': 'In attesa del primo aggiornamento dal corriere',
  'tracking_page.expected_delivery': 'Consegna prevista',
  'tracking_page.expected_on': '{date}',
  'tracking_page.expected_between': '{from} – {to}',
  'tracking_page.timeline': 'Cronologia della spedizione',
  'tracking_page.no_events': 'Ancora nessun aggiornamento. Gli aggiornamenti appariranno qui non appena il corriere li comunicherà.',
  'tracking_page.notice.exception': 'Il corriere ha segnalato un problema con questo pacco. Potrebbe arrivare più tardi del previsto.',
  'tracking_page.notice.return_to_sender': 'Questo pacco sta tornando al mittente.',
  'tracking_page.notice.failed_attempt': 'Il corriere non è riuscito a consegnare il pacco: riproverà o lascerà istruzioni.',
  'tracking_page.notice.available_for_pickup': 'Il pacco è in attesa presso un punto di ritiro.',
  'tracking_page.not_found_title': 'Pagina di tracciamento non trovata',
  'tracking_page.not_found_text': 'A questo link non corrisponde alcun pacco. Controlli il link nella notifica di spedizione.',
  'tracking_page.footer': 'Gli orari sono indicati nell’ora locale di ciascun evento, quando è nota.',

  'notification.info_received.subject': 'Il suo pacco di {merchant} è in preparazione',
  'notification.info_received.heading': 'Il suo pacco è in preparazione',
  'notification.info_received.body':
    'Il suo pacco di {merchant} è in preparazione e sarà affidato presto al corriere. Può seguire la spedizione online in qualsiasi momento.',
  'notification.info_received.sms': '{merchant}: il suo pacco è in preparazione per la spedizione. Tracciamento: {url}',

  'notification.in_transit.subject': 'Il suo pacco di {merchant} è in viaggio',
  'notification.in_transit.heading': 'Il suo pacco è in viaggio',
  'notification.in_transit.body':
    'Buone notizie: il suo pacco di {merchant} è in viaggio verso di lei. Può seguire la spedizione online in qualsiasi momento.',
  'notification.in_transit.sms': '{merchant}: il suo pacco è in viaggio. Tracciamento: {url}',

  'notification.out_for_delivery.subject': 'Il suo pacco di {merchant} arriva oggi',
  'notification.out_for_delivery.heading': 'In consegna oggi',
  'notification.out_for_delivery.body':
    'Il suo pacco di {merchant} è in consegna e dovrebbe arrivare oggi. Si assicuri che qualcuno possa riceverlo.',
  'notification.out_for_delivery.sms': '{merchant}: il suo pacco è in consegna e arriva oggi. Tracciamento: {url}',

  'notification.available_for_pickup.subject': 'Il suo pacco di {merchant} è pronto per il ritiro',
  'notification.available_for_pickup.heading': 'Pronto per il ritiro',
  'notification.available_for_pickup.body':
    'Il suo pacco di {merchant} la aspetta presso un punto di ritiro. Lo ritiri al più presto: i pacchi vengono conservati solo per un periodo limitato.',
  'notification.available_for_pickup.sms': '{merchant}: il suo pacco è pronto per il ritiro. Lo ritiri presto. Dettagli: {url}',

  'notification.failed_attempt.subject': 'Tentativo di consegna del suo pacco di {merchant}',
  'notification.failed_attempt.heading': 'Non è stato possibile consegnare il suo pacco',
  'notification.failed_attempt.body':
    'Il corriere non è riuscito a consegnarle il pacco di {merchant}. Riproverà oppure le lascerà istruzioni su come procedere.',
  'notification.failed_attempt.sms': '{merchant}: non è stato possibile consegnare il suo pacco. Come procedere: {url}',

  'notification.exception.subject': 'Aggiornamento sul suo pacco di {merchant}',
  'notification.exception.heading': 'Un problema con la consegna',
  'notification.exception.body':
    'Il corriere ha segnalato un problema con il suo pacco di {merchant}, che potrebbe quindi arrivare più tardi del previsto. Trova lo stato più recente nella pagina di tracciamento.',
  'notification.exception.sms': '{merchant}: il corriere segnala un problema con il suo pacco. Dettagli: {url}',

  'notification.delivered.subject': 'Il suo pacco di {merchant} è stato consegnato',
  'notification.delivered.heading': 'Il suo pacco è arrivato',
  'notification.delivered.body': 'Il suo pacco di {merchant} è stato consegnato. Ci auguriamo che il suo acquisto le piaccia!',
  'notification.delivered.sms': '{merchant}: il suo pacco è stato consegnato. Dettagli: {url}',

  'notification.return_to_sender.subject': 'Il suo pacco di {merchant} torna al mittente',
  'notification.return_to_sender.heading': 'Il suo pacco torna al mittente',
  'notification.return_to_sender.body': 'Il suo pacco di {merchant} sta tornando al mittente. Per qualsiasi domanda, contatti {merchant}.',
  'notification.return_to_sender.sms': '{merchant}: il suo pacco sta tornando al mittente. Dettagli: {url}',

  'notification.return_requested.subject': 'Abbiamo ricevuto la sua richiesta di reso {returnId}',
  'notification.return_requested.heading': 'Richiesta di reso ricevuta',
  'notification.return_requested.body':
    '{merchant} ha ricevuto la sua richiesta di reso {returnId} e la esaminerà a breve. Riceverà un messaggio non appena sarà presa una decisione.',
  'notification.return_requested.sms': '{merchant}: abbiamo ricevuto la sua richiesta di reso {returnId}. Dettagli: {url}',

  'notification.return_approved.subject': 'Il suo reso {returnId} è stato approvato',
  'notification.return_approved.heading': 'Reso approvato',
  'notification.return_approved.body': '{merchant} ha approvato il suo reso {returnId}. Ora può rispedire gli articoli.',
  'notification.return_approved.sms': '{merchant}: il suo reso {returnId} è stato approvato. Dettagli: {url}',
  'notification.return_approved.sms_label': '{merchant}: il suo reso {returnId} è stato approvato. La sua etichetta di reso: {url}',
  'notification.return_approved.label':
    'L’etichetta di reso è pronta: la stampi, o mostri il suo codice QR al punto di consegna, dalla pagina del suo reso: {url}',

  'notification.return_rejected.subject': 'Il suo reso {returnId} non è stato accettato',
  'notification.return_rejected.heading': 'Reso non accettato',
  'notification.return_rejected.body':
    '{merchant} ha esaminato il suo reso {returnId} e purtroppo non può accettarlo. Motivo: {rejectReason}\n\nPer qualsiasi domanda, contatti {merchant}.',
  'notification.return_rejected.sms': '{merchant}: il suo reso {returnId} non è stato accettato. Dettagli: {url}',

  'notification.return_received.subject': '{merchant} ha ricevuto il suo reso {returnId}',
  'notification.return_received.heading': 'Reso ricevuto',
  'notification.return_received.body':
    '{merchant} ha ricevuto il suo reso {returnId}. Riceverà un messaggio non appena sarà stato elaborato.',
  'notification.return_received.sms': '{merchant}: abbiamo ricevuto il suo reso {returnId}. Dettagli: {url}',

  'notification.refund_issued.subject': 'Il rimborso del suo reso {returnId} è stato emesso',
  'notification.refund_issued.heading': 'Rimborso emesso',
  'notification.refund_issued.body':
    '{merchant} ha emesso il rimborso del suo reso {returnId}. A seconda del metodo di pagamento, potrebbero volerci alcuni giorni prima che lo riceva.',
  'notification.refund_issued.sms': '{merchant}: il rimborso del suo reso {returnId} è stato emesso. Dettagli: {url}',
  'notification.refund_issued.amount': 'Importo rimborsato:',

  'notification.common.track_button': 'Traccia il pacco',
  'notification.common.return_button': 'Visualizza il reso',
  'notification.common.tracking_number': 'Numero di tracciamento',
  'notification.common.carrier': 'Corriere',
  'notification.common.expected_delivery': 'Consegna prevista',
  'notification.common.pickup_point': 'Punto di ritiro',
  'notification.common.opening_hours': 'Orari di apertura',
  'notification.common.unsubscribe': 'Annulla l’iscrizione',
  'notification.common.footer': 'Riceve questo messaggio perché {merchant} la tiene aggiornata sul suo ordine.',

  'notification.unsubscribe.title': 'Annullare l’iscrizione agli aggiornamenti sulla consegna',
  'notification.unsubscribe.confirm_button': 'Annulla l’iscrizione',
  'notification.unsubscribe.done': 'L’iscrizione è stata annullata. Non riceverà più questi aggiornamenti.',
  'notification.unsubscribe.all_from_merchant': 'Interrompi tutti gli aggiornamenti di {merchant}',
  'notification.unsubscribe.invalid': 'Questo link di annullamento non è valido o è scaduto.',
};
