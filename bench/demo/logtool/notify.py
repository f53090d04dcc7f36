"""Deliver reports: by e-mail, to webhooks and to XML-RPC collectors."""

import email.message
import email.utils
import getpass
import hashlib
import hmac
import imaplib
import json
import os
import smtplib
import socket
import ssl
import time
import urllib.request
import xmlrpc.client

from .net import USER_AGENT

#: Environment variable holding the mail password; asked for if unset.
PASSWORD_VARIABLE = "LOGTOOL_MAIL_PASSWORD"


def build_message(text, *, subject, recipients, sender=None):
    """Return an e-mail message with the report *text* as its body.

    The sender defaults to the current user at the fully qualified name
    of this host.
    """
    sender = sender or f"{getpass.getuser()}@{socket.getfqdn()}"
    message = email.message.EmailMessage()
    message["Subject"] = subject
    message["From"] = sender
    message["To"] = ", ".join(recipients)
    message["Date"] = email.utils.formatdate(localtime=True)
    message["Message-ID"] = email.utils.make_msgid(
        domain=sender.rpartition("@")[2])
    message.set_content(text)
    return message


def _password(username):
    """Return the mail password of *username*."""
    return (os.environ.get(PASSWORD_VARIABLE)
            or getpass.getpass(f"Mail password for {username}: "))


def send_mail(message, settings):
    """Send *message* with the ``[mail]`` section of the configuration.

    When ``imap_host`` and ``archive_mailbox`` are set, a copy is stored
    in that mailbox, marked as read.
    """
    username = settings["username"]
    archive = settings["imap_host"] and settings["archive_mailbox"]
    if archive and not username:
        raise ValueError("archive_mailbox requires a username")
    password = _password(username) if username else None
    context = ssl.create_default_context()
    with smtplib.SMTP(settings["smtp_host"], settings["smtp_port"]) as smtp:
        if settings["starttls"]:
            smtp.starttls(context=context)
        if username:
            smtp.login(username, password)
        smtp.send_message(message)
    if archive:
        with imaplib.IMAP4_SSL(settings["imap_host"],
                               ssl_context=context) as imap:
            imap.login(username, password)
            imap.append(settings["archive_mailbox"], r"(\Seen)",
                        imaplib.Time2Internaldate(time.time()),
                        message.as_bytes())


def post_webhook(summary, url, *, secret=None, timeout=30.0):
    """POST *summary* as JSON to *url* and return the HTTP status.

    With a *secret*, the body is signed with HMAC-SHA256 and the signature
    sent as ``X-Logtool-Signature: sha256=<hex digest>``.
    """
    body = json.dumps(summary, sort_keys=True).encode()
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    if secret:
        signature = hmac.new(secret.encode(), body, hashlib.sha256)
        headers["X-Logtool-Signature"] = f"sha256={signature.hexdigest()}"
    request = urllib.request.Request(url, data=body, headers=headers,
                                     method="POST")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.status


def push_xmlrpc(summary, url):
    """Pass *summary* to the ``logtool.submit`` method of an XML-RPC server.

    Return what the method returns.
    """
    with xmlrpc.client.ServerProxy(url, allow_none=True) as proxy:
        return proxy.logtool.submit(summary)
