// A double of Stripe.js for the browser tests, served in place of https://js.stripe.com/…/stripe.js.
// It implements the calls the payment page makes through @stripe/stripe-js and
// @stripe/react-stripe-js: Stripe(key), elements({ clientSecret }), elements.create('payment'),
// element.mount/on/off/update/destroy, and confirmPayment, which confirms the PaymentIntent at
// https://api.stripe.com (routed by the test to the local Stripe API double) with the card typed
// into the Payment Element's frame. createToken, createPaymentMethod and confirmCardPayment exist
// only because react-stripe-js checks for them; the page never calls them.
(function () {
  var FRAME_ORIGIN = 'https://js.stripe.com';
  function unused(name) {
    return function () {
      return Promise.reject(new Error('Stripe.js double: ' + name + ' is not used by this product'));
    };
  }
  window.Stripe = function Stripe(publishableKey) {
    var card = '';
    window.addEventListener('message', function (event) {
      if (event.origin !== FRAME_ORIGIN || !event.data || event.data.stripeDouble !== 'card') return;
      card = String(event.data.number || '').replace(/\s+/g, '');
    });
    var elementsOptions = null;
    var stripe = {
      _registerWrapper: function () {},
      registerAppInfo: function () {},
      createToken: unused('createToken'),
      createPaymentMethod: unused('createPaymentMethod'),
      confirmCardPayment: unused('confirmCardPayment'),
      elements: function (options) {
        elementsOptions = options || {};
        var created = {};
        return {
          update: function (next) {
            Object.assign(elementsOptions, next);
          },
          getElement: function (type) {
            return created[type] || null;
          },
          submit: function () {
            return Promise.resolve(card ? {} : { error: { type: 'validation_error', message: 'Your card number is incomplete.' } });
          },
          create: function (type) {
            var handlers = {};
            var frame = null;
            var element = {
              mount: function (node) {
                var target = typeof node === 'string' ? document.querySelector(node) : node;
                frame = document.createElement('iframe');
                frame.title = 'Secure payment input frame';
                frame.name = '__privateStripeFrame_double';
                frame.src = FRAME_ORIGIN + '/v3/elements-inner-payment-double.html';
                frame.style.cssText = 'width:100%;height:200px;border:0;display:block';
                frame.addEventListener('load', function () {
                  (handlers.ready || []).forEach(function (h) {
                    h({ elementType: type });
                  });
                });
                target.appendChild(frame);
              },
              on: function (name, handler) {
                (handlers[name] = handlers[name] || []).push(handler);
                return element;
              },
              off: function (name, handler) {
                handlers[name] = (handlers[name] || []).filter(function (h) {
                  return h !== handler;
                });
                return element;
              },
              update: function () {},
              unmount: function () {
                if (frame) frame.remove();
              },
              destroy: function () {
                if (frame) frame.remove();
              },
            };
            created[type] = element;
            return element;
          },
        };
      },
      confirmPayment: function (options) {
        var secret = (options.clientSecret || (elementsOptions && elementsOptions.clientSecret) || '').toString();
        var id = secret.split('_secret_')[0];
        var body = new URLSearchParams();
        body.set('client_secret', secret);
        body.set('payment_method_data[type]', 'card');
        body.set('payment_method_data[card][number]', card);
        body.set('return_url', options.confirmParams.return_url);
        return fetch('https://api.stripe.com/v1/payment_intents/' + id + '/confirm', {
          method: 'POST',
          headers: { Authorization: 'Bearer ' + publishableKey, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
        }).then(function (res) {
          return res.json().then(function (json) {
            if (!res.ok) return { error: json.error };
            if (options.redirect !== 'if_required') window.location.assign(options.confirmParams.return_url);
            return { paymentIntent: json };
          });
        });
      },
    };
    return stripe;
  };
})();
