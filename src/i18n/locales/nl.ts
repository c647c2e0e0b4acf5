/** Dutch, addressing the recipient with "u". */
export const nl: Readonly<Record<string, string>> = {
  'tracking_page.skip_link': 'Naar de inhoud',
  'tracking_page.page_title': 'Volg uw pakket',
  'tracking_page.heading': 'Uw pakket',
  'tracking_page.tracking_number': 'Trackingnummer',
  'tracking_page.carrier': 'Vervoerder',
  'tracking_page.current_status': 'Huidige status',
  'tracking_page.progress_label': 'Voortgang van de bezorging',
  'tracking_page.step_done': 'afgerond',
  'tracking_page.step_current': 'huidige stap',
  'tracking_page.step_upcoming': 'nog niet bereikt',
  'tracking_page.phase.info_received': 'Gegevens ontvangen',
  'tracking_page.phase.in_transit': 'Onderweg',
  'tracking_page.phase.out_for_delivery': 'Wordt bezorgd',
  'tracking_page.phase.failed_attempt': 'Bezorgpoging mislukt',
  'tracking_page.phase.available_for_pickup': 'Klaar om op te halen',
  'tracking_page.phase.delivered': 'Bezorgd',
  'tracking_page.phase.exception': 'Probleem met de bezorging',
  'tracking_page.phase.return_to_sender': 'Retour naar afzender',
  'tracking_page.no_information': 'Wachten op de eerste update van de vervoerder',
  'tracking_page.expected_delivery': 'Verwachte bezorging',
  'tracking_page.expected_on': '{date}',
  'tracking_page.expected_between': '{from} – {to}',
  'tracking_page.timeline': 'Verloop van de zending',
  'tracking_page.no_events': 'Nog geen trackinggegevens. Updates verschijnen hier zodra de vervoerder ze doorgeeft.',
  'tracking_page.notice.exception': 'De vervoerder heeft een probleem met dit pakket gemeld. Het kan later aankomen dan verwacht.',
  'tracking_page.notice.return_to_sender': 'Dit pakket is onderweg terug naar de afzender.',
  'tracking_page.notice.failed_attempt': 'De vervoerder kon het pakket niet bezorgen en probeert het opnieuw of laat instructies achter.',
  'tracking_page.notice.available_for_pickup': 'Het pakket ligt voor u klaar bij een afhaalpunt.',
  'tracking_page.not_found_title': 'Trackingpagina niet gevonden',
  'tracking_page.not_found_text': 'Bij deze link hoort geen pakket. Controleer de link in uw verzendbericht.',
  'tracking_page.footer': 'Tijden worden weergegeven in de lokale tijd van elke gebeurtenis, voor zover die bekend is.',

  'notification.info_received.subject': 'Uw pakket van {merchant} wordt klaargemaakt',
  'notification.info_received.heading': 'Uw pakket wordt klaargemaakt',
  'notification.info_received.body':
    'Uw pakket van {merchant} wordt klaargemaakt voor verzending en gaat binnenkort naar de vervoerder. U kunt de zending op elk moment online volgen.',
  'notification.info_received.sms': '{merchant}: uw pakket wordt klaargemaakt voor verzending. Volg het hier: {url}',

  'notification.in_transit.subject': 'Uw pakket van {merchant} is onderweg',
  'notification.in_transit.heading': 'Uw pakket is onderweg',
  'notification.in_transit.body':
    'Goed nieuws: uw pakket van {merchant} is onderweg naar u. U kunt de zending op elk moment online volgen.',
  'notification.in_transit.sms': '{merchant}: uw pakket is onderweg. Volg het hier: {url}',

  'notification.out_for_delivery.subject': 'Uw pakket van {merchant} wordt vandaag bezorgd',
  'notification.out_for_delivery.heading': 'Wordt vandaag bezorgd',
  'notification.out_for_delivery.body':
    'Uw pakket van {merchant} is onderweg naar u en wordt naar verwachting vandaag bezorgd. Zorg ervoor dat iemand het in ontvangst kan nemen.',
  'notification.out_for_delivery.sms': '{merchant}: uw pakket wordt vandaag bezorgd. Volg het hier: {url}',

  'notification.available_for_pickup.subject': 'Uw pakket van {merchant} ligt klaar om op te halen',
  'notification.available_for_pickup.heading': 'Klaar om op te halen',
  'notification.available_for_pickup.body':
    'Uw pakket van {merchant} ligt voor u klaar bij een afhaalpunt. Haal het zo snel mogelijk op: pakketten worden daar maar beperkte tijd bewaard.',
  'notification.available_for_pickup.sms': '{merchant}: uw pakket ligt klaar bij een afhaalpunt. Haal het snel op. Info: {url}',

  'notification.failed_attempt.subject': 'Bezorgpoging voor uw pakket van {merchant}',
  'notification.failed_attempt.heading': 'Uw pakket kon niet worden bezorgd',
  'notification.failed_attempt.body':
    'De vervoerder kon uw pakket van {merchant} niet aan u overhandigen. Er volgt een nieuwe poging, of u krijgt instructies over hoe het verder gaat.',
  'notification.failed_attempt.sms': '{merchant}: uw pakket kon niet worden bezorgd. Zo gaat het verder: {url}',

  'notification.exception.subject': 'Nieuws over uw pakket van {merchant}',
  'notification.exception.heading': 'Probleem met uw bezorging',
  'notification.exception.body':
    'De vervoerder heeft een probleem met uw pakket van {merchant} gemeld. Het kan daardoor later aankomen dan verwacht. De laatste status vindt u op de trackingpagina.',
  'notification.exception.sms': '{merchant}: de vervoerder meldt een probleem met uw pakket. Info: {url}',

  'notification.delivered.subject': 'Uw pakket van {merchant} is bezorgd',
  'notification.delivered.heading': 'Uw pakket is aangekomen',
  'notification.delivered.body': 'Uw pakket van {merchant} is bezorgd. Veel plezier met uw bestelling!',
  'notification.delivered.sms': '{merchant}: uw pakket is bezorgd. Veel plezier ermee! Info: {url}',

  'notification.return_to_sender.subject': 'Uw pakket van {merchant} gaat terug naar de afzender',
  'notification.return_to_sender.heading': 'Uw pakket gaat retour',
  'notification.return_to_sender.body':
    'Uw pakket van {merchant} is onderweg terug naar de afzender. Neem bij vragen contact op met {merchant}.',
  'notification.return_to_sender.sms': '{merchant}: uw pakket gaat terug naar de afzender. Info: {url}',

  'notification.return_requested.subject': 'We hebben uw retouraanvraag {returnId} ontvangen',
  'notification.return_requested.heading': 'Retour aangemeld',
  'notification.return_requested.body':
    '{merchant} heeft uw retouraanvraag {returnId} ontvangen en beoordeelt deze zo snel mogelijk. U krijgt bericht zodra er een beslissing is.',
  'notification.return_requested.sms': '{merchant}: we hebben uw retouraanvraag {returnId} ontvangen. Info: {url}',

  'notification.return_approved.subject': 'Uw retour {returnId} is goedgekeurd',
  'notification.return_approved.heading': 'Retour goedgekeurd',
  'notification.return_approved.body': '{merchant} heeft uw retour {returnId} goedgekeurd. U kunt de artikelen nu terugsturen.',
  'notification.return_approved.sms': '{merchant}: uw retour {returnId} is goedgekeurd. Info: {url}',
  'notification.return_approved.sms_label': '{merchant}: uw retour {returnId} is goedgekeurd. Uw retourlabel: {url}',
  'notification.return_approved.label':
    'Uw retourlabel staat klaar: print het, of toon de QR-code bij het afgiftepunt, via de pagina van uw retour: {url}',

  'notification.return_rejected.subject': 'Uw retour {returnId} kon niet worden geaccepteerd',
  'notification.return_rejected.heading': 'Retour niet geaccepteerd',
  'notification.return_rejected.body':
    '{merchant} heeft uw retour {returnId} beoordeeld en kan deze helaas niet accepteren. Reden: {rejectReason}\n\nNeem bij vragen contact op met {merchant}.',
  'notification.return_rejected.sms': '{merchant}: uw retour {returnId} kon helaas niet worden geaccepteerd. Info: {url}',

  'notification.return_received.subject': '{merchant} heeft uw retour {returnId} ontvangen',
  'notification.return_received.heading': 'Retour ontvangen',
  'notification.return_received.body': '{merchant} heeft uw retour {returnId} ontvangen. U krijgt bericht zodra deze is verwerkt.',
  'notification.return_received.sms': '{merchant}: we hebben uw retour {returnId} ontvangen. Info: {url}',

  'notification.refund_issued.subject': 'De terugbetaling voor uw retour {returnId} is uitgevoerd',
  'notification.refund_issued.heading': 'Terugbetaling uitgevoerd',
  'notification.refund_issued.body':
    '{merchant} heeft de terugbetaling voor uw retour {returnId} uitgevoerd. Afhankelijk van uw betaalmethode kan het enkele dagen duren voordat u het bedrag ontvangt.',
  'notification.refund_issued.sms': '{merchant}: de terugbetaling voor uw retour {returnId} is uitgevoerd. Info: {url}',
  'notification.refund_issued.amount': 'Terugbetaald bedrag:',

  'notification.common.track_button': 'Volg uw pakket',
  'notification.common.return_button': 'Uw retour bekijken',
  'notification.common.tracking_number': 'Trackingnummer',
  'notification.common.carrier': 'Vervoerder',
  'notification.common.expected_delivery': 'Verwachte bezorging',
  'notification.common.pickup_point': 'Afhaalpunt',
  'notification.common.opening_hours': 'Openingstijden',
  'notification.common.unsubscribe': 'Afmelden',
  'notification.common.footer': 'U ontvangt dit bericht omdat {merchant} u op de hoogte houdt van uw bestelling.',

  'notification.unsubscribe.title': 'Afmelden voor bezorgupdates',
  'notification.unsubscribe.confirm_button': 'Afmelden',
  'notification.unsubscribe.done': 'U bent afgemeld en ontvangt deze berichten niet meer.',
  'notification.unsubscribe.all_from_merchant': 'Alle berichten van {merchant} stopzetten',
  'notification.unsubscribe.invalid': 'Deze afmeldlink is ongeldig of verlopen.',
};
