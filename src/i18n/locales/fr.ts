/**
 * French, addressing the recipient with "vous". A no-break space (\u00a0) goes before `:`, `!` and `?`, as French
 * typography asks, except in SMS texts (plain spaces there). "Votre colis {merchant}" rather than "de {merchant}":
 * no elision to get wrong before a shop name starting with a vowel.
 */
export const fr: Readonly<Record<string, string>> = {
  'tracking_page.skip_link': 'Aller au contenu',
  'tracking_page.page_title': 'Suivre votre colis',
  'tracking_page.heading': 'Votre colis',
  'tracking_page.tracking_number': 'Numéro de suivi',
  'tracking_page.carrier': 'Transporteur',
  'tracking_page.current_status': 'Statut actuel',
  'tracking_page.progress_label': 'Progression de la livraison',
  'tracking_page.step_done': 'étape terminée',
  'tracking_page.step_current': 'étape en cours',
  'tracking_page.step_upcoming': 'étape à venir',
  'tracking_page.phase.info_received': 'Informations reçues',
  'tracking_page.phase.in_transit': 'En cours d’acheminement',
  'tracking_page.phase.out_for_delivery': 'En cours de livraison',
  'tracking_page.phase.failed_attempt': 'Tentative de livraison échouée',
  'tracking_page.phase.available_for_pickup': 'Disponible en point de retrait',
  'tracking_page.phase.delivered': 'Livré',
  'tracking_page.phase.exception': 'Incident de livraison',
  'tracking_page.phase.return_to_sender': 'Retour à l’expéditeur',
  'tracking_page.no_information': 'En attente des premières informations du transporteur',
  'tracking_page.expected_delivery': 'Livraison prévue',
  'tracking_page.expected_on': '{date}',
  'tracking_page.expected_between': '{from} – {to}',
  'tracking_page.timeline': 'Historique du suivi',
  'tracking_page.no_events':
    'Aucun événement de suivi pour l’instant. Les mises à jour s’afficheront ici dès que le transporteur les communiquera.',
  'tracking_page.notice.exception': 'Le transporteur a signalé un problème avec ce colis. Il pourrait arriver plus tard que prévu.',
  'tracking_page.notice.return_to_sender': 'Ce colis est en cours de retour vers l’expéditeur.',
  'tracking_page.notice.failed_attempt':
    'Le transporteur n’a pas pu livrer le colis. Il effectuera une nouvelle tentative ou vous laissera des instructions.',
  'tracking_page.notice.available_for_pickup': 'Votre colis vous attend dans un point de retrait.',
  'tracking_page.not_found_title': 'Page de suivi introuvable',
  'tracking_page.not_found_text': 'Aucun colis ne correspond à ce lien. Vérifiez le lien figurant dans votre avis d’expédition.',
  'tracking_page.footer': 'Les heures sont indiquées dans l’heure locale de chaque événement, lorsqu’elle est connue.',

  'notification.info_received.subject': 'Votre colis {merchant} est en préparation',
  'notification.info_received.heading': 'Votre colis est en préparation',
  'notification.info_received.body':
    'Votre colis {merchant} est en cours de préparation et sera bientôt remis au transporteur. Vous pouvez le suivre en ligne à tout moment.',
  'notification.info_received.sms': '{merchant} : votre colis est en préparation. Suivi : {url}',

  'notification.in_transit.subject': 'Votre colis {merchant} est en route',
  'notification.in_transit.heading': 'Votre colis est en route',
  'notification.in_transit.body':
    'Bonne nouvelle\u00a0: votre colis {merchant} est en route vers vous. Vous pouvez le suivre en ligne à tout moment.',
  'notification.in_transit.sms': '{merchant} : votre colis est en route. Suivi : {url}',

  'notification.out_for_delivery.subject': 'Votre colis {merchant} arrive aujourd’hui',
  'notification.out_for_delivery.heading': 'Livraison prévue aujourd’hui',
  'notification.out_for_delivery.body':
    'Votre colis {merchant} est en cours de livraison et devrait arriver aujourd’hui. Veillez à ce que quelqu’un puisse le réceptionner.',
  'notification.out_for_delivery.sms': "{merchant} : votre colis est en cours de livraison et arrive aujourd'hui. Suivi : {url}",

  'notification.available_for_pickup.subject': 'Votre colis {merchant} est disponible en point de retrait',
  'notification.available_for_pickup.heading': 'Disponible en point de retrait',
  'notification.available_for_pickup.body':
    'Votre colis {merchant} vous attend dans un point de retrait. Pensez à le retirer rapidement\u00a0: les colis n’y sont conservés que pendant une durée limitée.',
  'notification.available_for_pickup.sms': '{merchant} : votre colis est disponible en point de retrait. Infos : {url}',

  'notification.failed_attempt.subject': 'Tentative de livraison de votre colis {merchant}',
  'notification.failed_attempt.heading': 'Votre colis n’a pas pu être livré',
  'notification.failed_attempt.body':
    'Le transporteur n’a pas pu vous remettre votre colis {merchant}. Il effectuera une nouvelle tentative ou vous laissera des instructions pour la suite.',
  'notification.failed_attempt.sms': "{merchant} : votre colis n'a pas pu être livré. Et maintenant : {url}",

  'notification.exception.subject': 'Information sur votre colis {merchant}',
  'notification.exception.heading': 'Un incident sur votre livraison',
  'notification.exception.body':
    'Le transporteur a signalé un problème avec votre colis {merchant}. Il pourrait donc arriver plus tard que prévu. Retrouvez le dernier statut sur la page de suivi.',
  'notification.exception.sms': '{merchant} : le transporteur signale un problème avec votre colis. Infos : {url}',

  'notification.delivered.subject': 'Votre colis {merchant} a été livré',
  'notification.delivered.heading': 'Votre colis est arrivé',
  'notification.delivered.body': 'Votre colis {merchant} a été livré. Profitez bien de votre commande\u00a0!',
  'notification.delivered.sms': '{merchant} : votre colis a été livré. Bonne réception ! Infos : {url}',

  'notification.return_to_sender.subject': 'Votre colis {merchant} est retourné à l’expéditeur',
  'notification.return_to_sender.heading': 'Votre colis est retourné à l’expéditeur',
  'notification.return_to_sender.body':
    'Votre colis {merchant} est en cours de retour vers l’expéditeur. Pour toute question, veuillez contacter {merchant}.',
  'notification.return_to_sender.sms': "{merchant} : votre colis est retourné à l'expéditeur. Infos : {url}",

  'notification.return_requested.subject': 'Nous avons bien reçu votre demande de retour {returnId}',
  'notification.return_requested.heading': 'Demande de retour reçue',
  'notification.return_requested.body':
    '{merchant} a bien reçu votre demande de retour {returnId} et l’examinera rapidement. Vous serez informé dès qu’une décision aura été prise.',
  'notification.return_requested.sms': '{merchant} : nous avons bien reçu votre demande de retour {returnId}. Infos : {url}',

  'notification.return_approved.subject': 'Votre retour {returnId} a été accepté',
  'notification.return_approved.heading': 'Retour accepté',
  'notification.return_approved.body': '{merchant} a accepté votre retour {returnId}. Vous pouvez maintenant renvoyer les articles.',
  'notification.return_approved.sms': '{merchant} : votre retour {returnId} a été accepté. Infos : {url}',
  'notification.return_approved.sms_label': '{merchant} : votre retour {returnId} a été accepté. Votre étiquette de retour : {url}',
  'notification.return_approved.label':
    'Votre étiquette de retour est prête\u00a0: imprimez-la, ou présentez son code QR au point de dépôt, depuis la page de votre retour\u00a0: {url}',

  'notification.return_rejected.subject': 'Votre retour {returnId} n’a pas pu être accepté',
  'notification.return_rejected.heading': 'Retour refusé',
  'notification.return_rejected.body':
    '{merchant} a examiné votre retour {returnId} et ne peut malheureusement pas l’accepter. Motif\u00a0: {rejectReason}\n\nPour toute question, veuillez contacter {merchant}.',
  'notification.return_rejected.sms': "{merchant} : votre retour {returnId} n'a pas pu être accepté. Infos : {url}",

  'notification.return_received.subject': '{merchant} a bien reçu votre retour {returnId}',
  'notification.return_received.heading': 'Retour reçu',
  'notification.return_received.body':
    '{merchant} a bien reçu votre retour {returnId}. Vous recevrez un message dès qu’il aura été traité.',
  'notification.return_received.sms': '{merchant} : nous avons bien reçu votre retour {returnId}. Infos : {url}',

  'notification.refund_issued.subject': 'Le remboursement de votre retour {returnId} a été effectué',
  'notification.refund_issued.heading': 'Remboursement effectué',
  'notification.refund_issued.body':
    '{merchant} a effectué le remboursement de votre retour {returnId}. Selon votre moyen de paiement, il peut s’écouler quelques jours avant qu’il vous parvienne.',
  'notification.refund_issued.sms': '{merchant} : le remboursement de votre retour {returnId} a été effectué. Infos : {url}',
  'notification.refund_issued.amount': 'Montant remboursé\u00a0:',

  'notification.common.track_button': 'Suivre mon colis',
  'notification.common.return_button': 'Voir mon retour',
  'notification.common.tracking_number': 'Numéro de suivi',
  'notification.common.carrier': 'Transporteur',
  'notification.common.expected_delivery': 'Livraison prévue',
  'notification.common.pickup_point': 'Point de retrait',
  'notification.common.opening_hours': 'Horaires d’ouverture',
  'notification.common.unsubscribe': 'Se désabonner',
  'notification.common.footer': 'Vous recevez ce message car {merchant} vous envoie des informations sur le suivi de votre commande.',

  'notification.unsubscribe.title': 'Se désabonner des notifications de livraison',
  'notification.unsubscribe.confirm_button': 'Me désabonner',
  'notification.unsubscribe.done': 'Votre désabonnement est confirmé. Vous ne recevrez plus ces notifications.',
  'notification.unsubscribe.all_from_merchant': 'Ne plus recevoir aucune notification envoyée par {merchant}',
  'notification.unsubscribe.invalid': 'Ce lien de désabonnement n’est pas valide ou a expiré.',
};
