# The letters the site mails (the server renders them; the browser never loads this part).
# $name: the account's name; $email: the address; $link: the one-use link.

mail-verify-subject = Confirm your e-mail address on Reversi
mail-verify-body =
    Hello { $name },

    to confirm that { $email } is your address on Reversi, open this link:

    { $link }

    It works once, within 24 hours. With a confirmed address you can set a new password when you forget yours.

    If you did not ask for this, ignore this letter: nothing changes.

mail-reset-subject = Set a new password on Reversi
mail-reset-body =
    Hello { $name },

    someone (we hope you) asked to set a new password for your Reversi account. Open this link to choose one:

    { $link }

    It works once, within an hour, and signs out every device signed in to the account.

    If you did not ask for this, ignore this letter: your password stays as it is.

# Letters about play, sent to those who asked for them in their settings.
# $opponent, $challenger: a player's name; $control: a time control such as 3d.
mail-turn-subject = Your move against { $opponent } on Reversi
mail-turn-body =
    Hello { $name },

    it is your move in your correspondence game against { $opponent }:

    { $link }

    You get these letters because you asked for them; turn them off in your settings on Reversi.

mail-challenge-subject = { $challenger } challenges you on Reversi
mail-challenge-body =
    Hello { $name },

    { $challenger } challenges you to a correspondence game ({ $control } per move). Accept or decline in the lobby:

    { $link }

    You get these letters because you asked for them; turn them off in your settings on Reversi.

mail-address-subject = Your e-mail address on Reversi was changed
mail-address-changed-body =
    Hello { $name },

    the e-mail address of your Reversi account is now { $email }. This letter goes to the old address, so that you hear of it.

    If you did not make this change, someone may know your password: sign in, set a new password and your address back at once. If you can no longer sign in, tell the site's administrators.
mail-address-removed-body =
    Hello { $name },

    the e-mail address of your Reversi account was removed: this address will get no more letters from it, and a forgotten password can no longer be reset by mail.

    If you did not make this change, someone may know your password: sign in, set a new password and your address back at once. If you can no longer sign in, tell the site's administrators.
