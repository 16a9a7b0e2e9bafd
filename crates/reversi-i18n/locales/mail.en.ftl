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
